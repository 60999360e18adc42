import { elicitationContent } from '../../../../protocol/elicitationForm';
import type { Handler } from './types';

/**
 * An MCP server's form card answered. Only a form the host itself waits for can be answered (a forged
 * id answers nothing); accepted values are checked again here with the shared form model, and the
 * server receives only what passes.
 */
export const answerElicitation: Handler<'elicitation/answer'> = ({ id, action, values }, { host, log }) => {
  const form = host.approvals.request(id)?.form;
  if (!form) {
    log.warn(`elicitation/answer for ${id}: no form waits under that id`);
    return { ok: false };
  }
  if (action !== 'accept') return { ok: host.approvals.answer(id, { approved: false, elicitation: { action } }) };
  const checked = elicitationContent(form.fields, values ?? {});
  if ('errors' in checked) return { ok: false, errors: checked.errors };
  return { ok: host.approvals.answer(id, { approved: true, elicitation: { action: 'accept', content: checked.content } }) };
};
