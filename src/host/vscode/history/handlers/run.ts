import { runTimeline } from '../../../../core/historyView';
import type { HistoryHandler } from './types';

/** One run's timeline and memory; nothing when it is gone (deleted in another window). */
export const run: HistoryHandler<'history/run'> = async ({ runId }, { service, restores, states }) => {
  const store = await service.store();
  const detail = await store.getRun(runId);
  if (!detail) return {};
  states?.knowRun(detail);
  const restorePoints = restores?.points(runId) ?? [];
  return { timeline: { ...runTimeline(detail), usage: await store.runUsage(runId), ...(restorePoints.length ? { restorePoints } : {}) } };
};
