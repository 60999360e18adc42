import type { Hunk, HunkResult } from './types';
import { applyHunksToText, type ApplyHunksOptions, type FileApplyOutcome } from './applyHunks';

/**
 * SEARCH/REPLACE semantics (aider, Cline, Roo Code): the blocks for one file apply in order, each
 * to the text the blocks before it produced, so a later SEARCH may contain what an earlier REPLACE
 * wrote. (Unified-diff and apply_patch hunks are all placed against the original instead.)
 * All or nothing: every block is still tried, against the text the placed ones left, so the
 * model hears about every block that does not fit, not only the first.
 */
export function applyInSequence(text: string, hunks: readonly Hunk[], opts: ApplyHunksOptions): FileApplyOutcome {
  const results: HunkResult[] = [];
  const reasons: string[] = [];
  let current = text;
  let lastOutcome: FileApplyOutcome | undefined;
  let placedCount = 0;
  /** Line count changes of placed blocks, to move later blocks' line hints (Roo's :start_line:). */
  const shifts: Array<{ at: number; delta: number }> = [];
  for (const h of hunks) {
    if (!opts.isSelected(h)) {
      results.push({ id: `${opts.path}#${h.index}`, path: opts.path, index: h.index, status: 'rejected' });
      continue;
    }
    const hinted = h.oldStart === undefined ? h : { ...h, oldStart: shifted(h.oldStart, shifts) };
    const out = applyHunksToText(current, [hinted], { ...opts, isSelected: () => true });
    const r = out.hunks[0]!;
    results.push(r);
    if (!out.ok) {
      const earlier = placedCount > 0 ? ` (blocks apply in order: it was searched in the text the ${placedCount} block(s) before it left)` : '';
      reasons.push(`${r.reason ?? `${opts.path}: block refused`}${earlier}`);
      continue;
    }
    const next = out.newText!;
    if (r.range) shifts.push({ at: r.range.start, delta: lineCount(next) - lineCount(current) });
    current = next;
    lastOutcome = out;
    placedCount++;
  }
  if (reasons.length > 0) {
    for (const r of results) if (r.status === 'applied') r.status = 'would-apply';
    return { ok: false, hunks: results, reason: reasons.join('\n\n') };
  }
  // One block's edit script spans the whole change; several need a diff of the two texts.
  return { ok: true, hunks: results, newText: current, ...(placedCount === 1 && lastOutcome?.script ? { script: lastOutcome.script } : {}) };
}

function shifted(line: number, shifts: ReadonlyArray<{ at: number; delta: number }>): number {
  let out = line;
  for (const s of shifts) if (s.at < out) out += s.delta;
  return Math.max(1, out);
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
