import type { ToHostType, ToWebviewMessage } from '../../../protocol/chat';
import { validateToHost } from '../../../protocol/validate';
import { answerApproval } from './handlers/answerApproval';
import { newChat } from './handlers/newChat';
import { openConfig } from './handlers/openConfig';
import { openLink } from './handlers/openLink';
import { ready } from './handlers/ready';
import { send } from './handlers/send';
import { stop } from './handlers/stop';
import type { Handler, HandlerContext } from './handlers/types';
import { errorMessage } from '../../../core/base';

const HANDLERS: { [K in ToHostType]: Handler<K> } = {
  'chat/ready': ready,
  'chat/send': send,
  'chat/stop': stop,
  'chat/new': newChat,
  'approval/answer': answerApproval,
  'link/open': openLink,
  'config/open': openConfig,
};

/**
 * Every webview message passes validateToHost first; what fails is dropped and logged, with no
 * answer (a forged message learns nothing). A valid one goes to its handler, whose answer goes
 * back under the request's id.
 */
export async function route(raw: unknown, ctx: HandlerContext, reply: (m: ToWebviewMessage) => void): Promise<void> {
  const checked = validateToHost(raw);
  if (!checked.ok) {
    ctx.log.warn(`dropped a webview message: ${checked.reason}`);
    return;
  }
  const { id, type, payload } = checked.message;
  try {
    const handler = HANDLERS[type] as Handler<typeof type>;
    const result = await handler(payload as never, ctx);
    reply({ kind: 'response', id, type, ok: true, result } as ToWebviewMessage);
  } catch (err) {
    const error = errorMessage(err);
    ctx.log.warn(`${type} failed: ${error}`);
    reply({ kind: 'response', id, type, ok: false, error });
  }
}
