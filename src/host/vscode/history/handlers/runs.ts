import { runRowOf } from '../../../../core/historyView';
import type { HistoryHandler } from './types';

/** A page of runs, newest first, within the time filter, with the total for the list's height. */
export const runs: HistoryHandler<'history/runs'> = async ({ offset, limit, since, until }, { service }) => {
  const page = await (await service.store()).listRunPage({ offset, limit, since, until });
  return { runs: page.runs.map(runRowOf), total: page.total };
};
