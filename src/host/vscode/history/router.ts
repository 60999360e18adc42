import type { HistoryToHostType, HistoryToWebviewMessage } from '../../../protocol/history';
import { validateHistoryToHost } from '../../../protocol/historyValidate';
import { openLink } from './handlers/openLink';
import { openSettings } from './handlers/openSettings';
import { applyAgain, openPatch, revert } from './handlers/patchActions';
import { ready } from './handlers/ready';
import { run } from './handlers/run';
import { applyRetention, deleteRun, exportRun } from './handlers/runActions';
import { runs } from './handlers/runs';
import { search } from './handlers/search';
import type { HistoryHandler, HistoryHandlerContext } from './handlers/types';

const HANDLERS: { [K in HistoryToHostType]: HistoryHandler<K> } = {
  'history/ready': ready,
  'history/runs': runs,
  'history/run': run,
  'history/search': search,
  'history/openPatch': openPatch,
  'history/applyAgain': applyAgain,
  'history/revert': revert,
  'history/export': exportRun,
  'history/delete': deleteRun,
  'history/applyRetention': applyRetention,
  'history/openSettings': openSettings,
  'history/openLink': openLink,
};

/**
 * Every panel message passes validateHistoryToHost first; what fails is dropped and logged with no
 * answer. A valid one goes to its handler; the answer (or the error's message) goes back by id.
 */
export async function routeHistory(raw: unknown, ctx: HistoryHandlerContext, reply: (m: HistoryToWebviewMessage) => void): Promise<void> {
  const checked = validateHistoryToHost(raw);
  if (!checked.ok) {
    ctx.log.warn(`history panel: dropped a message: ${checked.reason}`);
    return;
  }
  const { id, type, payload } = checked.message;
  try {
    const handler = HANDLERS[type] as HistoryHandler<typeof type>;
    const result = await handler(payload as never, ctx);
    reply({ kind: 'response', id, type, ok: true, result } as HistoryToWebviewMessage);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    ctx.log.warn(`history panel: ${type} failed: ${error}`);
    reply({ kind: 'response', id, type, ok: false, error });
  }
}
