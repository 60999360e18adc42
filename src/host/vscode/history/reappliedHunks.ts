/**
 * Apply Again's review shows the applied part of a recorded patch as it lands now: a new diff, its
 * hunks numbered afresh per file. This maps each of the review's hunks to the recorded hunk it is,
 * so a hunk decided in the review is that recorded patch's hunk in every view (patches/patchStates.ts).
 * Pure: no `vscode`.
 */
import type { ApplyResult } from '../../../core/patch';

/**
 * The review's hunk id → the recorded patch's. The applied part keeps the recorded applied hunks'
 * order within each file, so the n-th hunk the review shows of a file is the n-th applied hunk of
 * that file; a review of the recorded text itself (same ids) maps each id to itself.
 */
export function recordedHunkIds(preview: Pick<ApplyResult, 'files'>, applied: readonly string[]): Record<string, string> {
  const shown = preview.files.flatMap((f) => f.hunks.filter((h) => h.status === 'would-apply'));
  const recorded = new Set(applied);
  if (shown.every((h) => recorded.has(h.id))) return Object.fromEntries(shown.map((h) => [h.id, h.id]));
  const byPath = new Map<string, string[]>();
  for (const id of [...applied].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    const path = id.slice(0, id.lastIndexOf('#'));
    byPath.set(path, [...(byPath.get(path) ?? []), id]);
  }
  const out: Record<string, string> = {};
  for (const f of preview.files) {
    const ids = byPath.get(f.newPath ?? f.oldPath ?? '') ?? [];
    f.hunks
      .filter((h) => h.status === 'would-apply')
      .forEach((h, i) => {
        if (ids[i]) out[h.id] = ids[i];
      });
  }
  return out;
}
