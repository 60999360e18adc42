import type { Handler } from './types';

/** Only an approval the host itself is waiting for can be answered; a forged id answers nothing. */
export const answerApproval: Handler<'approval/answer'> = ({ id, approved, feedback }, { host, log }) => {
  const ok = host.approvals.answer(id, { approved, ...(feedback?.trim() ? { feedback: feedback.trim() } : {}) });
  if (!ok) log.warn(`approval/answer for ${id}: nothing waits under that id`);
  return { ok };
};
