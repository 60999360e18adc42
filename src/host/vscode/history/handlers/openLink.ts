import { openLink as openChatLink } from '../../chat/handlers/openLink';
import type { HistoryHandler } from './types';

/** The chat's link rule (http/https only, no credentials, VS Code's own prompt), for links in recorded messages. */
export const openLink: HistoryHandler<'history/openLink'> = async ({ url }, { log }) => {
  const { opened } = await openChatLink({ url }, { log } as Parameters<typeof openChatLink>[1]);
  return { ok: opened, message: opened ? 'Opened.' : 'Only http and https links open.' };
};
