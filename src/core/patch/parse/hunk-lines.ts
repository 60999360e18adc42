import type { Hunk, HunkLine } from '../types';

/** Old-side and new-side line counts of a hunk body, as the `@@` header should state them. */
export function countSides(lines: readonly HunkLine[]): { old: number; new: number } {
  let oldSide = 0;
  let newSide = 0;
  for (const line of lines) {
    if (line.kind !== 'add') oldSide++;
    if (line.kind !== 'remove') newSide++;
  }
  return { old: oldSide, new: newSide };
}

export function changesSomething(lines: readonly HunkLine[]): boolean {
  return lines.some((line) => line.kind !== 'context');
}

/**
 * Drops lines at the end of a hunk that were completely empty in the patch text (no ' ' prefix):
 * usually the blank separator a model leaves before prose or the next file. Context at a hunk's
 * edge only locates it, so losing a real blank context line there changes nothing applied.
 * `emptyInSource[i]` tells whether `lines[i]` was an empty patch line. Returns how many were dropped.
 */
export function dropTrailingEmpty(lines: HunkLine[], emptyInSource: boolean[]): number {
  let dropped = 0;
  while (lines.length > 0 && emptyInSource[lines.length - 1] && lines[lines.length - 1]!.kind === 'context') {
    lines.pop();
    emptyInSource.pop();
    dropped++;
  }
  return dropped;
}

/**
 * SEARCH/REPLACE block as hunk lines: lines common to the start and end of both sides become
 * context (same meaning, a readable preview), the rest remove then add.
 */
export function replaceToHunkLines(search: readonly string[], replace: readonly string[]): HunkLine[] {
  let head = 0;
  const limit = Math.min(search.length, replace.length);
  while (head < limit && search[head] === replace[head]) head++;
  let tail = 0;
  while (tail < limit - head && search[search.length - 1 - tail] === replace[replace.length - 1 - tail]) {
    tail++;
  }
  const lines: HunkLine[] = [];
  for (let i = 0; i < head; i++) lines.push({ kind: 'context', text: search[i]! });
  for (let i = head; i < search.length - tail; i++) lines.push({ kind: 'remove', text: search[i]! });
  for (let i = head; i < replace.length - tail; i++) lines.push({ kind: 'add', text: replace[i]! });
  for (let i = search.length - tail; i < search.length; i++) lines.push({ kind: 'context', text: search[i]! });
  return lines;
}

/** Re-numbers hunks 0..n-1 in patch order (after merging sections of the same file). */
export function renumber(hunks: Hunk[]): Hunk[] {
  hunks.forEach((hunk, i) => {
    hunk.index = i;
  });
  return hunks;
}

/**
 * Prose a model writes after a hunk without a fence ("This logs the port.") lands in the body as
 * unprefixed lines. A tail of unprefixed lines that starts after an empty line is read as prose
 * and dropped: for a modified file it could only have been trailing context, which locates a
 * hunk but changes nothing applied. For whole-file content (a new file) it is dropped only when
 * every line before it had its prefix, since there it could be content that lost its `+`.
 * Returns the 1-based patch line of the first dropped prose line, or undefined.
 */
export function dropProseTail(lines: HunkLine[], emptyInSource: boolean[], patchLines: number[], wholeFile: boolean): number | undefined {
  let start = lines.length;
  let sawText = false;
  while (start > 0 && (emptyInSource[start - 1] || lines[start - 1]!.unprefixed)) {
    start--;
    if (lines[start]!.unprefixed && !emptyInSource[start]) sawText = true;
  }
  if (!sawText || start === lines.length || !emptyInSource[start] || start === 0) return undefined;
  if (wholeFile && lines.slice(0, start).some((l) => l.unprefixed)) return undefined;
  const firstText = lines.findIndex((l, i) => i >= start && l.unprefixed && !emptyInSource[i]);
  const at = patchLines[firstText];
  lines.length = start;
  emptyInSource.length = start;
  patchLines.length = start;
  return at;
}

/**
 * A line followed by `\\ No newline at end of file` has no ending, so a `\r` before the newline
 * that ends its patch line is content (git reads it so), not half of a CRLF.
 */
export function keepCrAsContent(line: HunkLine): void {
  if (line.eol !== '\r\n') return;
  line.text += '\r';
  delete line.eol;
}
