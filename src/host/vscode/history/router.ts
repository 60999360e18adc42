import type { HistoryToHostMessage, HistoryToHostType, HistoryToWebviewMessage } from '../../../protocol/history';
import { validateHistoryToHost } from '../../../protocol/historyValidate';
import { openLink } from './handlers/openLink';
import { openSettings } from './handlers/openSettings';
import { applyAgain, openPatch, revert } from './handlers/patchActions';
import { ready } from './handlers/ready';
import { run } from './handlers/run';
import { restoreApply, restoreDiff, restorePreview } from './handlers/restore';
import { applyRetention, continueInChat, deleteRun, exportRun } from './handlers/runActions';
import { runs } from './handlers/runs';
import { search } from './handlers/search';
import { usage } from './handlers/usage';
import type { HistoryHandler, HistoryHandlerContext } from './handlers/types';
import { createRpcRouter } from '../webview/rpcRouter';

const HANDLERS: { [K in HistoryToHostType]: HistoryHandler<K> } = {
  'history/ready': ready,
  'history/runs': runs,
  'history/run': run,
  'history/usage': usage,
  'history/search': search,
  'history/openPatch': openPatch,
  'history/applyAgain': applyAgain,
  'history/revert': revert,
  'history/export': exportRun,
  'history/delete': deleteRun,
  'history/continueInChat': continueInChat,
  'history/applyRetention': applyRetention,
  'history/openSettings': openSettings,
  'history/openLink': openLink,
  'history/restorePreview': restorePreview,
  'history/restoreDiff': restoreDiff,
  'history/restoreApply': restoreApply,
};

/** Every panel message is validated, then answered by its handler (webview/rpcRouter.ts). */
const router = createRpcRouter<HistoryToHostMessage, HistoryHandlerContext>(validateHistoryToHost, HANDLERS, 'history panel');

export function routeHistory(raw: unknown, ctx: HistoryHandlerContext, reply: (m: HistoryToWebviewMessage) => void): Promise<void> {
  return router(raw, ctx, (m) => reply(m as HistoryToWebviewMessage));
}
