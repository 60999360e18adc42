import type { HistoryHandler } from './types';

export const exportRun: HistoryHandler<'history/export'> = ({ runId, format }, { runs }) => runs.exportRun(runId, format);
/** The host asks for confirmation (a modal): a forged request deletes nothing by itself. */
export const deleteRun: HistoryHandler<'history/delete'> = ({ runId }, { runs }) => runs.deleteRun(runId);
export const applyRetention: HistoryHandler<'history/applyRetention'> = (_payload, { runs }) => runs.applyRetention();
