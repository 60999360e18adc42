/**
 * Each patch's state in this window, and each of its hunks', from the one stream of what happened to
 * it: the run's events (proposed, applied, refused, undone), the history's Apply Again and Revert,
 * and restores to a checkpoint. Pure (no `vscode` import; test/unit/host/patchStates.test.ts): the
 * store around it (patchStates.ts) tells every view when a patch's state changes.
 */
import type { AgentEvent } from '../../../protocol/agentEvents';
import type { PatchLifecycle, PatchStateView } from '../../../protocol/patchState';
import type { RestoreDone } from '../../../protocol/restore';
import type { SeedPatch } from './patchSeed';
import type { ReviewedPatchRef } from '../../../core/ports';

/** Something that changes a patch's state. */
export type PatchChange =
  | { kind: 'event'; event: AgentEvent; at: number }
  /** The history's Apply Again wrote the patch's applied hunks again (`undoKey`: the new write's). */
  | { kind: 'reapplied'; runId: string; patchId: string; undoKey?: string; files: string[]; at: number }
  /** The history's Revert wrote the patch's reverse patch. */
  | { kind: 'reverted'; runId: string; patchId: string; files: string[]; at: number }
  /** The review of an Apply Again ended without a write (rejected, or the files changed): its hunks are as before it. */
  | { kind: 'review-closed'; runId: string; patchId: string; at: number }
  | { kind: 'restored'; done: RestoreDone };

/**
 * `fromHistory`: seeded from the history after a reload, this window's undo journal does not have the write (no Undo Patch; the history's Revert instead).
 * `beforeReview`: the hunks before an Apply Again's review decided them (put back when nothing is written).
 */
type Row = PatchStateView & { step?: number; beforeRestore?: PatchLifecycle; fromHistory?: boolean; beforeReview?: PatchStateView['hunks'] };

const WORDS: Record<PatchLifecycle, string> = {
  proposed: 'proposed, not written yet',
  applied: 'applied',
  'partially-applied': 'partly applied',
  refused: 'not applied',
  undone: 'undone by you: the files are back as they were before it',
  reapplied: 'applied again by you',
  'restored-away': 'taken back by a restore to an earlier step',
};

/** A state in words, for the views and screen readers. */
export function patchStateWords(state: PatchLifecycle): string {
  return WORDS[state];
}

const WRITTEN: ReadonlySet<PatchLifecycle> = new Set(['applied', 'partially-applied', 'reapplied']);

export class PatchStateTable {
  private readonly rows = new Map<string, Row>();
  private readonly byUndoKey = new Map<string, string>();
  private runId: string | undefined;
  private step: number | undefined;

  /** Every patch known, oldest first. */
  all(): PatchStateView[] {
    return [...this.rows.values()].map(view);
  }

  get(ref: { runId?: string; patchId?: string; undoKey?: string }): PatchStateView | undefined {
    const row = this.find(ref);
    return row && view(row);
  }

  /**
   * Patches as the history recorded them (after a reload): each one this window does not know yet is
   * known from now on; a known one keeps its state (what this window saw is newer). Returns the new ones.
   */
  seed(patches: readonly SeedPatch[]): PatchStateView[] {
    const added: PatchStateView[] = [];
    for (const p of patches) {
      if (this.find(p)) continue;
      const row: Row = {
        ...p,
        key: `${p.runId}/${p.patchId}`,
        hunks: p.hunks.map((h) => ({ ...h })),
        words: '',
        canUndo: false,
        canRevert: false,
        fromHistory: true,
      };
      this.rows.set(row.key, row);
      if (p.undoKey) this.byUndoKey.set(p.undoKey, row.key);
      added.push(view(row));
    }
    return added;
  }

  /**
   * The history recorded a change to a run (a restore after a reload): the patches this window knows
   * only from the history (no step: it did not see them written) take the state it records now, as a
   * restore's step range cannot place them. The ones it saw written keep theirs. Returns the changed.
   */
  relearn(patches: readonly SeedPatch[]): PatchStateView[] {
    const changed: PatchStateView[] = [];
    for (const p of patches) {
      const row = this.find(p);
      if (!row || row.step !== undefined || (row.state === p.state && row.beforeRestore === p.beforeRestore)) continue;
      row.state = p.state;
      row.beforeRestore = p.beforeRestore;
      row.at = p.at;
      changed.push(view(row));
    }
    return changed;
  }

  /**
   * The user decided hunks of the proposal under review (the diff editor's Accept hunk / Reject hunk):
   * the newest proposed patch with those hunks takes the decisions, or, for the history's Apply Again,
   * the recorded patch the review writes again (`patch`, its hunks by their recorded ids). Returns it
   * when a hunk changed.
   */
  reviewDecided(decisions: readonly { id: string; state: 'proposed' | 'accepted' | 'rejected' }[], at: number, patch?: ReviewedPatchRef): PatchStateView[] {
    if (patch) decisions = decisions.flatMap((d) => (patch.hunkIds[d.id] ? [{ ...d, id: patch.hunkIds[d.id]! }] : []));
    const ids = new Set(decisions.map((d) => d.id));
    const row = patch
      ? this.find(patch)
      : [...this.rows.values()].reverse().find((r) => r.state === 'proposed' && ids.size && [...ids].every((id) => r.hunks.some((h) => h.id === id)));
    if (!row) return [];
    if (patch) row.beforeReview ??= row.hunks.map((h) => ({ ...h }));
    let changed = false;
    for (const d of decisions) {
      const hunk = row.hunks.find((h) => h.id === d.id);
      if (!hunk || hunk.state === d.state || hunk.state === 'refused') continue;
      hunk.state = d.state;
      changed = true;
    }
    if (!changed) return [];
    row.at = at;
    return [view(row)];
  }

  /** Applies a change; returns the patches whose state it changed (none: it was about no known patch). */
  apply(change: PatchChange): PatchStateView[] {
    switch (change.kind) {
      case 'event':
        return this.event(change.event, change.at);
      case 'reapplied':
        this.reviewWritten(change);
        return this.set({ runId: change.runId, patchId: change.patchId, files: change.files, at: change.at }, 'reapplied', change.undoKey);
      case 'review-closed':
        return this.reviewClosed(change);
      case 'reverted':
        return this.set({ runId: change.runId, patchId: change.patchId, files: change.files, at: change.at }, 'undone');
      case 'restored':
        return this.restored(change.done);
    }
  }

  private event(e: AgentEvent, at: number): PatchStateView[] {
    if (e.type === 'run/started') this.runId = e.runId ?? undefined;
    if (e.type === 'step/started') this.step = e.step;
    if (e.type === 'patch/proposed' && e.patchId) {
      const hunks = e.hunks.map((h) => ({ id: h.id, state: h.status === 'refused' ? ('refused' as const) : ('proposed' as const) }));
      const files = [...new Set(e.hunks.map((h) => h.path))];
      return this.set({ runId: this.runId, patchId: e.patchId, files, at }, e.ok ? 'proposed' : 'refused', undefined, hunks);
    }
    if (e.type === 'patch/applied') {
      const written = new Set(e.hunks.map((h) => h.id));
      const known = this.find({ runId: this.runId, patchId: e.patchId })?.hunks ?? e.hunks.map((h) => ({ id: h.id, state: 'proposed' as const }));
      const hunks = known.map((h) => ({
        id: h.id,
        state: written.has(h.id) ? ('applied' as const) : h.state === 'refused' ? ('refused' as const) : ('rejected' as const),
      }));
      const state = e.edited || e.hunks.length >= e.total ? 'applied' : 'partially-applied';
      return this.set({ runId: this.runId, patchId: e.patchId, files: e.files, at }, state, e.undoKey, hunks);
    }
    if (e.type === 'patch/refused') {
      const hunks = e.hunks.map((h) => ({ id: h.id, state: h.state }));
      return this.set({ runId: this.runId, patchId: e.patchId, files: e.files, at }, 'refused', undefined, hunks);
    }
    if (e.type === 'patch/undone') return this.set({ runId: e.runId, patchId: e.patchId, files: e.files, at }, 'undone', e.undoKey);
    return [];
  }

  /** An Apply Again's review was answered and written: the hunks it accepted (or left as they were) are applied. */
  private reviewWritten(ref: { runId: string; patchId: string }): void {
    const row = this.find(ref);
    if (!row?.beforeReview) return;
    row.beforeReview = undefined;
    for (const h of row.hunks) if (h.state === 'accepted' || h.state === 'proposed') h.state = 'applied';
  }

  private reviewClosed(change: { runId: string; patchId: string; at: number }): PatchStateView[] {
    const row = this.find(change);
    if (!row?.beforeReview) return [];
    row.hunks = row.beforeReview;
    row.beforeReview = undefined;
    row.at = change.at;
    return [view(row)];
  }

  private restored(done: RestoreDone): PatchStateView[] {
    const { runId, beforeStep, redo } = done.request;
    const changed: PatchStateView[] = [];
    for (const row of this.rows.values()) {
      if (row.runId !== runId) continue;
      // A row seeded from the history has no step: a restore before the reload took it back, its redo may bring it back.
      const inRange = row.step !== undefined && row.step >= beforeStep;
      if (!redo && inRange && WRITTEN.has(row.state)) {
        row.beforeRestore = row.state;
        row.state = 'restored-away';
      } else if (redo && (inRange || row.step === undefined) && row.state === 'restored-away' && row.beforeRestore) {
        row.state = row.beforeRestore;
        row.beforeRestore = undefined;
      } else continue;
      row.at = done.at;
      changed.push(view(row));
    }
    return changed;
  }

  private set(
    ref: { runId?: string; patchId?: string; files: string[]; at: number },
    state: PatchLifecycle,
    undoKey?: string,
    hunks?: PatchStateView['hunks'],
  ): PatchStateView[] {
    let row = this.find({ ...ref, undoKey });
    if (!row) {
      const key = ref.runId && ref.patchId ? `${ref.runId}/${ref.patchId}` : undoKey;
      if (!key) return [];
      // Undone or applied again, but written before this window knew of it (a reload): known from now on.
      row = {
        key,
        files: ref.files,
        state,
        hunks: hunks ?? [],
        at: ref.at,
        words: '',
        canUndo: false,
        canRevert: false,
        ...(this.step !== undefined && ref.runId === this.runId ? { step: this.step } : {}),
      };
      if (ref.runId) row.runId = ref.runId;
      if (ref.patchId) row.patchId = ref.patchId;
      this.rows.set(key, row);
    }
    row.state = state;
    row.at = ref.at;
    row.fromHistory = undefined;
    if (ref.files.length) row.files = ref.files;
    if (hunks) row.hunks = hunks;
    if (undoKey) {
      row.undoKey = undoKey;
      this.byUndoKey.set(undoKey, row.key);
    }
    return [view(row)];
  }

  private find(ref: { runId?: string; patchId?: string; undoKey?: string }): Row | undefined {
    if (ref.runId && ref.patchId) {
      const row = this.rows.get(`${ref.runId}/${ref.patchId}`);
      if (row) return row;
    }
    const key = ref.undoKey && this.byUndoKey.get(ref.undoKey);
    return key ? this.rows.get(key) : undefined;
  }
}

function view(row: Row): PatchStateView {
  const { step: _step, beforeRestore: _before, beforeReview: _review, fromHistory, ...rest } = row;
  const written = WRITTEN.has(row.state) && !!row.undoKey;
  return {
    ...rest,
    hunks: row.hunks.map((h) => ({ ...h })),
    words: WORDS[row.state],
    canUndo: written && !fromHistory,
    // Seeded after a reload: the history's Revert (by the recorded patch) is the way back the card offers.
    canRevert: written && !!fromHistory && !!row.runId && !!row.patchId,
  };
}
