import { buildReversePatch } from './reverse';
import type { ApplyResult } from './types';

/**
 * What a placed patch changes, as a git-style unified diff computed from the engine's own before
 * and after texts: the patch as it will really land (normalised, fuzz resolved), not as the model
 * wrote it. The reverse patch builder run with the sides swapped. Empty when nothing would change.
 */
export function proposedDiff(result: ApplyResult): string {
  if (!result.ok) return '';
  return buildReversePatch(
    result.files
      .filter((f) => f.status === 'ok' && f.oldText !== undefined && f.newText !== undefined)
      .map((f) => ({ oldPath: f.newPath, newPath: f.oldPath, oldText: f.newText ?? null, newText: f.oldText ?? null })),
  );
}
