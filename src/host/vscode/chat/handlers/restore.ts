import { RUNNING_REASON } from '../../checkpoints/restoreLogic';
import type { Handler } from './types';

/** "Restore to before step N" in the chat: preview, a file's diff, the restore (checkpoints/checkpointRestores.ts). */
export const restorePreview: Handler<'restore/preview'> = (request, { host }) => {
  if (!host.restores) return { ok: false, message: 'Restores are not available in this window.' };
  return host.restores.preview(request);
};

export const restoreDiff: Handler<'restore/diff'> = ({ path, ...request }, { host }) =>
  host.restores?.diff(request, path) ?? { ok: false, message: 'Restores are not available in this window.' };

export const restoreApply: Handler<'restore/apply'> = ({ restoreRest, ...request }, { host }) => {
  if (host.running) return { ok: false, message: RUNNING_REASON, restored: [], blocked: [] };
  return host.restores?.apply(request, restoreRest) ?? { ok: false, message: 'Restores are not available in this window.', restored: [], blocked: [] };
};
