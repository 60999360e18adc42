/**
 * A run's patches as the history recorded them, in the store's terms (patchStateTable.ts): what the
 * window's patch states start from after a reload, when a conversation or the history panel shows a
 * patch this window has not seen change. The state is the one the history's timeline shows: written
 * in full or in part (or not at all), then the user's latest Undo or Apply Again, or a restore to a
 * checkpoint that took it back (until its redo). Pure: no `vscode`.
 */
import { hunkNoteOf, type PatchRecord, type RunDetail } from '../../../core/history';
import { patchOutcomes, type UserPatchOutcome } from '../../../core/historyView';
import { undoKeyOf } from '../../../core/patch';
import type { ChatEntry } from '../../../protocol/chat';
import type { PatchLifecycle, PatchStateView } from '../../../protocol/patchState';

/** One recorded patch where it stands now, before the store words it. */
export type SeedPatch = Omit<PatchStateView, 'key' | 'words' | 'canUndo' | 'canRevert'> & {
  runId: string;
  patchId: string;
  /** Taken back by a restore: where it stood before (its redo puts it back). */
  beforeRestore?: PatchLifecycle;
};

export function seedOfRun(detail: Pick<RunDetail, 'run' | 'steps' | 'patches'>): SeedPatch[] {
  const written = detail.patches.flatMap((p) => {
    const undoKey = undoKeyOfRecord(p);
    return undoKey ? [{ undoKey, appliedAt: p.appliedAt }] : [];
  });
  const outcomes = patchOutcomes(detail.steps, written);
  return detail.patches.map((p) => seedOfPatch(detail.run.id, p, outcomes));
}

/** The undo key of a written patch (its reverse patch's), undefined for one never written. */
function undoKeyOfRecord(p: PatchRecord): string | undefined {
  return p.appliedAt !== null && p.reversePatch?.trim() ? undoKeyOf(p.reversePatch) : undefined;
}

function seedOfPatch(runId: string, p: PatchRecord, outcomes: ReadonlyMap<string, UserPatchOutcome>): SeedPatch {
  const undoKey = undoKeyOfRecord(p);
  const applied = p.acceptedHunks.filter((h): h is string => typeof h === 'string');
  const notes = p.rejectedHunks.flatMap((h) => hunkNoteOf(h) ?? []);
  const hunks: SeedPatch['hunks'] = [
    ...applied.map((id) => ({ id, state: p.appliedAt !== null ? ('applied' as const) : ('proposed' as const) })),
    ...notes.map((n) => ({ id: n.id, state: n.state })),
  ].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  const outcome = undoKey ? outcomes.get(undoKey) : undefined;
  const written: PatchLifecycle =
    outcome?.undoneAt !== undefined
      ? 'undone'
      : outcome?.reappliedAt !== undefined
        ? 'reapplied'
        : p.appliedAt === null
          ? notes.length
            ? 'refused'
            : 'proposed'
          : notes.length
            ? 'partially-applied'
            : 'applied';
  const restored = outcome?.restoredAt !== undefined;
  return {
    runId,
    patchId: p.id,
    ...(undoKey ? { undoKey } : {}),
    files: p.files,
    state: restored ? 'restored-away' : written,
    ...(restored ? { beforeRestore: written } : {}),
    hunks,
    at: outcome?.restoredAt ?? outcome?.undoneAt ?? outcome?.reappliedAt ?? p.appliedAt ?? p.time,
  };
}

/**
 * The runs of a chat's lines that show a patch the store does not know (a chat kept across a reload,
 * a conversation opened again): the ones to read from the history. A line's run is the last
 * `run/started` before it.
 */
export function runsWithUnknownPatches(
  entries: readonly ChatEntry[],
  known: (ref: { runId?: string; patchId?: string; undoKey?: string }) => boolean,
): string[] {
  const runs = new Set<string>();
  let runId: string | undefined;
  for (const entry of entries) {
    if (entry.kind !== 'event') continue;
    const e = entry.event;
    if (e.type === 'run/started') runId = e.runId ?? undefined;
    if (!runId || (e.type !== 'patch/proposed' && e.type !== 'patch/applied' && e.type !== 'patch/refused') || !e.patchId) continue;
    const undoKey = e.type === 'patch/applied' ? e.undoKey : undefined;
    if (!known({ runId, patchId: e.patchId, ...(undoKey ? { undoKey } : {}) })) runs.add(runId);
  }
  return [...runs];
}
