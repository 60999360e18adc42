/**
 * Writes a restore plan: removals first (deepest first), then folders (shallowest first), then files
 * and links, each write and each removal through the one confined writer (no folder on the way may be
 * a link, checked when the entry is written or removed). A plan with blocked paths writes nothing unless
 * `restRest` says to restore the rest. A write that fails midway puts back what was already written
 * (the run's states are in the blob store), so a failed restore changes nothing.
 */
import path from 'node:path';
import { errorMessage } from '../base/errors';
import { mkdirConfined, removeConfined, symlinkConfined, writeFileConfined } from '../fs/confinedWrite';
import type { CheckpointStore } from './checkpointStore';
import type { RestoreItem, RestorePlan } from './restorePlan';
import type { FileState } from './types';

export type RestoreResult = { ok: true; restored: string[]; skipped: RestorePlan['blocked'] } | { ok: false; reason: string; blocked: RestorePlan['blocked'] };

export function applyRestore(store: CheckpointStore, root: string, plan: RestorePlan, options: { restoreRest?: boolean } = {}): RestoreResult {
  if (plan.blocked.length > 0 && !options.restoreRest) {
    return { ok: false, reason: `nothing was restored: ${plan.blocked.length} path(s) block it`, blocked: plan.blocked };
  }
  const ordered = orderForWrite(plan.items);
  const done: RestoreItem[] = [];
  for (const item of ordered) {
    try {
      writeState(store, root, item.path, item.target);
      done.push(item);
    } catch (err) {
      // Put back what was written, newest first, so the workspace is as it was before the restore.
      for (const d of orderForWrite(done.map((x) => ({ path: x.path, current: x.target, target: x.current })))) {
        try {
          writeState(store, root, d.path, d.target);
        } catch {
          /* best effort; reported below */
        }
      }
      const reason = errorMessage(err);
      return { ok: false, reason: `nothing was restored: writing ${item.path} failed (${reason})`, blocked: [{ path: item.path, reason }] };
    }
  }
  return { ok: true, restored: done.map((d) => d.path), skipped: plan.blocked };
}

/** Removals deepest first, then folders shallowest first, then files and links. */
function orderForWrite(items: readonly RestoreItem[]): RestoreItem[] {
  const depth = (p: string) => p.split('/').length;
  const removals = items.filter((i) => i.target === null).sort((a, b) => depth(b.path) - depth(a.path));
  const dirs = items.filter((i) => i.target?.kind === 'dir').sort((a, b) => depth(a.path) - depth(b.path));
  const files = items.filter((i) => i.target && i.target.kind !== 'dir');
  return [...removals, ...dirs, ...files];
}

function writeState(store: CheckpointStore, root: string, rel: string, state: FileState | null): void {
  const abs = path.join(root, rel);
  // Through real folders only: a folder of the workspace swapped for a link since the checkpoint is refused, not followed out.
  if (state === null) {
    removeConfined(root, abs); // a folder only when empty: its entries are items of their own
    return;
  }
  if (state.kind === 'dir') {
    removeConfined(root, abs, 'non-folder');
    mkdirConfined(root, abs, state.mode);
    return;
  }
  removeConfined(root, abs, 'folder');
  const bytes = store.blobs.get(state.hash);
  if (state.kind === 'link') symlinkConfined(root, abs, bytes.toString('utf8'));
  else writeFileConfined(root, abs, bytes, { mode: state.mode });
}
