import type { ToHostMessage, ToHostType, ToWebviewMessage } from '../../../../protocol/chat';
import { validateToHost } from '../../../../protocol/validate';
import { answerApproval } from './answerApproval';
import { alwaysAllow } from './alwaysAllow';
import { answerElicitation } from './answerElicitation';
import { home } from './home';
import { openConversation } from './openConversation';
import { newChat } from './newChat';
import { openConfig } from './openConfig';
import { openLink } from './openLink';
import { ready } from './ready';
import { send } from './send';
import { stop } from './stop';
import { answerTestsOffer } from './answerTestsOffer';
import { showTestOutput } from './showTestOutput';
import { undoPatch } from './undoPatch';
import { revertPatch } from './revertPatch';
import { restoreApply, restoreDiff, restorePreview } from './restore';
import type { Handler, HandlerContext } from './types';
import { createRpcRouter } from '../../webview/rpcRouter';

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
  'patch/revert': revertPatch,
  'restore/preview': restorePreview,
  'restore/diff': restoreDiff,
  'restore/apply': restoreApply,
};

/** Every chat message is validated, then answered by its handler (webview/rpcRouter.ts). */
const router = createRpcRouter<ToHostMessage, HandlerContext>(validateToHost, HANDLERS, 'chat');

export function route(raw: unknown, ctx: HandlerContext, reply: (m: ToWebviewMessage) => void): Promise<void> {
  return router(raw, ctx, (m) => reply(m as ToWebviewMessage));
}
