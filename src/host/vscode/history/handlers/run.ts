import { runTimeline } from '../../../../core/historyView';
import type { TimelineItem } from '../../../../protocol/history';
import type { HistoryHandler, HistoryHandlerContext } from './types';

/** One run's timeline and memory; nothing when it is gone (deleted in another window). */
export const run: HistoryHandler<'history/run'> = async ({ runId }, { service, restores, states }) => {
  const store = await service.store();
  const detail = await store.getRun(runId);
  if (!detail) return {};
  states?.knowRun(detail);
  const restorePoints = restores?.points(runId) ?? [];
  const timeline = runTimeline(detail);
  return {
    timeline: {
      ...timeline,
      items: timeline.items.map((i) => withStateNow(runId, i, states)),
      usage: await store.runUsage(runId),
      ...(restorePoints.length ? { restorePoints } : {}),
    },
  };
};

/**
 * A patch as the window's one store of patch states has it now (the chat and the status bar read the
 * same record): a restore that took it back, an Undo or Apply Again, hunks decided in an open review.
 * The recorded timeline alone does not know a restore's effect nor a review not written yet.
 */
function withStateNow(runId: string, item: TimelineItem, states: HistoryHandlerContext['states']): TimelineItem {
  if (item.kind !== 'patch' || !states) return item;
  const now = states.get({ runId, patchId: item.id });
  return now ? { ...item, now } : item;
}
