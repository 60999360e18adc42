/**
 * A recorded patch in the history panel as it stands now: the line under its title and each hunk's
 * state. The host sends the window's one record of the patch's state (`now`, the chat's card and the
 * status bar show the same one) beside what the run recorded; `now` wins, so an Undo Patch in the
 * chat, an Apply Again, a restore that took the patch back, or a hunk decided in an open review reads
 * the same here as there, without a reload.
 */
import type { HunkStateView, TimelineItem } from '../../src/protocol/history';

type PatchItem = Extract<TimelineItem, { kind: 'patch' }>;

/** "1 of 2 hunks applied, then taken back by a restore to an earlier step". */
export function patchStateLine(i: PatchItem): string {
  if (i.appliedAt === null && (!i.now || i.now.state === 'refused' || i.now.state === 'proposed')) return 'not applied';
  // The run's write, then what came after; applied again, the hunks that write kept (some may be rejected in its review).
  const hunks = i.now?.state === 'reapplied' ? hunksNow(i) : i.hunks;
  const applied = hunks.filter((h) => h.state === 'applied').length;
  return `${applied} of ${hunks.length} hunks applied${afterwards(i)}`;
}

/** What the user (or a restore) did to it after its write, newest first: the store's record, else the run's. */
function afterwards(i: PatchItem): string {
  const time = (at: number) => new Date(at).toLocaleTimeString();
  switch (i.now?.state) {
    case 'undone':
      return `, then undone by you at ${time(i.now.at)}`;
    case 'reapplied':
      return `, later applied again by you at ${time(i.now.at)}`;
    case 'restored-away':
      return `, then ${i.now.words} at ${time(i.now.at)}`;
    case 'applied':
    case 'partially-applied':
      return '';
  }
  if (i.undoneAt !== undefined) return `, then undone by you at ${time(i.undoneAt)}`;
  if (i.reappliedAt !== undefined) return `, later applied again by you at ${time(i.reappliedAt)}`;
  return '';
}

/**
 * Each recorded hunk with the state the store gives it now: a hunk accepted or rejected in the open
 * review of an Apply Again, or rejected there before the write. Hunks the store does not know keep
 * their recorded state.
 */
export function hunksNow(i: PatchItem): HunkStateView[] {
  const known = new Map((i.now?.hunks ?? []).map((h) => [h.id, h.state]));
  return i.hunks.map((h) => {
    const now = known.get(h.id);
    if (now === 'rejected' && h.state === 'applied') return { ...h, state: 'rejected', reason: 'rejected in the review of Apply Again' };
    if (now === 'accepted') return { ...h, state: 'accepted' };
    return h;
  });
}

/** Revert writes the recorded reverse patch: only while the files still have the patch. */
export function canRevertNow(i: PatchItem): boolean {
  return i.canRevert && i.now?.state !== 'undone' && i.now?.state !== 'restored-away';
}
