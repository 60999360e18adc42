import { runTimeline } from '../../../../core/history/timeline';
import type { HistoryHandler } from './types';

/** One run's timeline and memory; nothing when it is gone (deleted in another window). */
export const run: HistoryHandler<'history/run'> = async ({ runId }, { service }) => {
  const detail = await (await service.store()).getRun(runId);
  return detail ? { timeline: runTimeline(detail) } : {};
};
