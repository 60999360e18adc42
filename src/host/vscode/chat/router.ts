import type { ToHostMessage, ToHostType, ToWebviewMessage } from '../../../protocol/chat';
import { validateToHost } from '../../../protocol/validate';
import { answerApproval } from './handlers/answerApproval';
import { alwaysAllow } from './handlers/alwaysAllow';
import { answerElicitation } from './handlers/answerElicitation';
import { home } from './handlers/home';
import { openConversation } from './handlers/openConversation';
import { newChat } from './handlers/newChat';
import { openConfig } from './handlers/openConfig';
import { openLink } from './handlers/openLink';
import { ready } from './handlers/ready';
import { send } from './handlers/send';
import { stop } from './handlers/stop';
import { answerTestsOffer } from './handlers/answerTestsOffer';
import { showTestOutput } from './handlers/showTestOutput';
import { undoPatch } from './handlers/undoPatch';
import { restoreApply, restoreDiff, restorePreview } from './handlers/restore';
import type { Handler, HandlerContext } from './handlers/types';
import { createRpcRouter } from '../webview/rpcRouter';

const HANDLERS: { [K in ToHostType]: Handler<K> } = {
  'chat/ready': ready,
  'chat/send': send,
  'chat/stop': stop,
  'chat/new': newChat,
  'approval/answer': answerApproval,
  'approval/alwaysAllow': alwaysAllow,
  'elicitation/answer': answerElicitation,
  'chat/home': home,
  'chat/openConversation': openConversation,
  'link/open': openLink,
  'config/open': openConfig,
  'tests/answer': answerTestsOffer,
  'tests/showOutput': showTestOutput,
  'patch/undo': undoPatch,
  'restore/preview': restorePreview,
  'restore/diff': restoreDiff,
  'restore/apply': restoreApply,
};

/** Every chat message is validated, then answered by its handler (webview/rpcRouter.ts). */
const router = createRpcRouter<ToHostMessage, HandlerContext>(validateToHost, HANDLERS, 'chat');

export function route(raw: unknown, ctx: HandlerContext, reply: (m: ToWebviewMessage) => void): Promise<void> {
  return router(raw, ctx, (m) => reply(m as ToWebviewMessage));
}
