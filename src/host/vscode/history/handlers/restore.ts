import { RUNNING_REASON } from '../../checkpoints/restoreLogic';
import type { HistoryHandler } from './types';

const UNAVAILABLE = 'Restores are not available in this window.';

/** "Restore to before step N" in the history panel: the chat's restore (checkpoints/checkpointRestores.ts). */
export const restorePreview: HistoryHandler<'history/restorePreview'> = (request, { restores }) =>
  restores?.preview(request) ?? { ok: false, message: UNAVAILABLE };

export const restoreDiff: HistoryHandler<'history/restoreDiff'> = ({ path, ...request }, { restores }) =>
  restores?.diff(request, path) ?? { ok: false, message: UNAVAILABLE };

export const restoreApply: HistoryHandler<'history/restoreApply'> = ({ restoreRest, ...request }, { restores, running }) => {
  if (running?.()) return { ok: false, message: RUNNING_REASON, restored: [], blocked: [] };
  return restores?.apply(request, restoreRest) ?? { ok: false, message: UNAVAILABLE, restored: [], blocked: [] };
};
