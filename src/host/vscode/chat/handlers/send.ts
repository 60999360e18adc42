import type { Handler } from './types';

/** A user message; the host decides whether it may run (trust, settings), not the view. */
export const send: Handler<'chat/send'> = async ({ text }, { host }) => {
  if (!text.trim()) return { delivered: 'refused', reason: 'The message is empty.' };
  const { delivered, reason } = await host.send(text);
  return reason ? { delivered, reason } : { delivered };
};
