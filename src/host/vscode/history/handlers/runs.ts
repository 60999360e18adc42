import { runRowOf } from '../../../../core/history/timeline';
import type { HistoryHandler } from './types';

/** A page of runs, newest first; the first page also has this window's run that the store does not list yet. */
export const runs: HistoryHandler<'history/runs'> = async ({ offset, limit, since, until }, { service, live }) => {
  const page = await (await service.store()).listRunPage({ offset, limit, since, until });
  const rows = page.runs.map(runRowOf);
  if (offset > 0) return { runs: rows, total: page.total };
  const listed = new Set(rows.map((r) => r.id));
  const pending = live.pending((id) => listed.has(id), since, until);
  return { runs: [...pending, ...rows], total: page.total + pending.length };
};
