import type { HistoryHandler } from './types';

export const openPatch: HistoryHandler<'history/openPatch'> = ({ runId, patchId }, { patches }) => patches.open(runId, patchId);
export const applyAgain: HistoryHandler<'history/applyAgain'> = ({ runId, patchId }, { patches }) => patches.applyAgain(runId, patchId);
export const revert: HistoryHandler<'history/revert'> = ({ runId, patchId }, { patches }) => patches.revert(runId, patchId);
