import type { Hunk } from './types';
import type { FileIndex } from './fileIndex';
import type { Candidate } from './match';
import { keyAt } from './normalize';

/**
 * A clean `git diff -U0` file patch: no hunk has context, so nothing but the line numbers says
 * where its added lines go. They are trusted only when they prove themselves: every hunk has
 * its counts and they tally its body, the hunks do not overlap, each hunk's new
 * start is its old start moved by what the hunks before it added and removed, and every removed
 * line is in the file at its number. At least one removed line must be there to check, or
 * nothing ties the numbers to this file (`@@ -0,0 +1 @@` alone reads as "the file was empty").
 */
export type ByNumbers = { kind: 'not-zero-context' } | { kind: 'placed'; cands: Map<Hunk, Candidate> } | { kind: 'unproven'; why: string };

/**
 * 0-based first line a side covers. An empty side's start is the line after which its lines go
 * (git, GNU diff), or in jsdiff's output the line before which they go: both are tried, and the
 * numbers must prove themselves under one of them.
 */
type Convention = (start: number, count: number) => number;
const GIT: Convention = (start, count) => (count === 0 ? start : start - 1);
const JSDIFF: Convention = (start) => start - 1;

export function placeByNumbers(index: FileIndex, hunks: readonly Hunk[]): ByNumbers {
  if (hunks.length === 0 || hunks.some((h) => h.lines.some((l) => l.kind === 'context'))) return { kind: 'not-zero-context' };
  const numbered = hunks.every((h) => h.oldStart !== undefined && h.oldCount !== undefined && h.newStart !== undefined && h.newCount !== undefined);
  if (!numbered) return { kind: 'not-zero-context' };
  const git = placeWith(index, hunks, GIT);
  if (git.kind === 'placed' || !hunks.some((h) => h.oldCount === 0 || h.newCount === 0)) return git;
  const jsdiff = placeWith(index, hunks, JSDIFF);
  return jsdiff.kind === 'placed' ? jsdiff : git;
}

function placeWith(index: FileIndex, hunks: readonly Hunk[], position: Convention): ByNumbers {
  const cands = new Map<Hunk, Candidate>();
  let delta = 0;
  let floor = 0;
  let checked = 0;
  // In file order; an insertion goes before lines replaced at the same place.
  const ordered = [...hunks].sort(
    (a, b) => position(a.oldStart!, a.oldCount!) - position(b.oldStart!, b.oldCount!) || Number(a.oldCount !== 0) - Number(b.oldCount !== 0),
  );
  for (const h of ordered) {
    const removed = h.lines.filter((l) => l.kind === 'remove');
    const addedCount = h.lines.length - removed.length;
    if (removed.length !== h.oldCount || addedCount !== h.newCount) return { kind: 'unproven', why: `the counts of ${header(h)} do not tally its lines` };
    const p = position(h.oldStart!, h.oldCount!);
    if (p < floor) return { kind: 'unproven', why: `${header(h)} overlaps the hunk before it` };
    if (p + removed.length > index.length) return { kind: 'unproven', why: `${header(h)} reaches past the end of the file (${index.length} lines)` };
    if (position(h.newStart!, h.newCount!) - p !== delta)
      return { kind: 'unproven', why: `the new start of ${header(h)} does not follow from the hunks before it` };
    for (let k = 0; k < removed.length; k++) {
      if (keyAt('trailing-whitespace', index.lines[p + k]!) !== keyAt('trailing-whitespace', removed[k]!.text)) {
        return { kind: 'unproven', why: `line ${p + k + 1} of the file is not the line ${header(h)} removes there` };
      }
    }
    checked += removed.length;
    cands.set(h, { start: p, map: removed.map((_, k) => p + k), level: 'exact', shift: { kind: 'none' } });
    delta += addedCount - removed.length;
    floor = p + removed.length;
  }
  if (checked === 0) return { kind: 'unproven', why: 'no hunk removes a line that would tie its numbers to this file' };
  return { kind: 'placed', cands };
}

function header(h: Hunk): string {
  return `@@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@`;
}
