/**
 * Patches whose only correct outcomes are the exact intended file or a refusal: applying them
 * "somewhere" or "approximately" silently corrupts the file.
 */
import { findBlock, newSide, oldSide, recount, splitLines, type UHunk } from '../diff-model';
import { hasMarker, hunksCopy, singleFile, unifiedFor } from './common';
import type { Kind } from './types';

export const missingPlus: Kind = {
  name: 'missing-plus',
  group: 'must-not-apply-wrong',
  format: 'unified',
  expectation: 'exact-or-refuse',
  description: 'one added line written as context (` ` prefix) or with no prefix at all',
  make: ({ pair, rng }) => {
    const file = splitLines(pair.oldText);
    const hunks = hunksCopy(pair);
    const slots: Array<{ i: number; h: UHunk; j: number; text: string }> = [];
    hunks.forEach((h, i) => h.lines.forEach((l, j) => l[0] === '+' && l.slice(1).trim().length >= 3 && slots.push({ i, h, j, text: l.slice(1) })));
    // Each slot's hunk is still hunks[i] when it is tried: the loop returns on its first change.
    for (const { i, h, j, text } of rng.shuffle(slots)) {
      const asContext = { ...h, lines: h.lines.map((l, k) => (k === j ? ' ' + text : l)) };
      // If the file happens to hold the line right there, "context" is a true reading: not a trap.
      if (findBlock(file, oldSide(asContext)).length > 0) continue;
      const unprefixed = rng.bool();
      const written: UHunk = { ...h, lines: h.lines.map((l, k) => (k === j ? (unprefixed ? text : ' ' + text) : l)) };
      const recounted = rng.bool();
      hunks[i] = recounted && !unprefixed ? { ...recount(written) } : written;
      const variant = `${unprefixed ? 'unprefixed' : 'as context'}, header ${recounted && !unprefixed ? 'recounted' : 'as intended'}`;
      return singleFile(pair, unifiedFor(pair, hunks), variant);
    }
    return null;
  },
};

/** Applies one hunk to the lines of a file at its header position (the hunk comes from a real diff). */
function applyAtHeader(file: string[], h: UHunk): string[] {
  const at = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
  return [...file.slice(0, at), ...newSide(h), ...file.slice(at + h.oldLines)];
}

export const ambiguousHunk: Kind = {
  name: 'ambiguous-hunk',
  group: 'must-not-apply-wrong',
  format: 'unified',
  expectation: 'exact-or-refuse',
  description: 'one hunk whose old text also occurs elsewhere in the file, with no usable line hint (bare `@@`, or a header exactly between both copies)',
  make: ({ pair, rng }) => {
    if (!pair.oldText.endsWith('\n') || !pair.newText.endsWith('\n')) return null;
    const file = splitLines(pair.oldText);
    for (const h of rng.shuffle(pair.hunks)) {
      const block = oldSide(h);
      if (hasMarker(h) || block.length < 3 || block.filter((l) => l.trim() !== '').length < 2) continue;
      if (findBlock(file, block).length !== 1) continue;
      const start = h.oldStart - 1; // 0-based
      const end = start + h.oldLines; // exclusive
      // The copy goes at a line boundary at least 5 lines away from the original, before or after it.
      const spots: number[] = [];
      for (let p = 0; p <= file.length; p++) if (p <= start - 5 || p >= end + 5) spots.push(p);
      if (spots.length === 0) continue;
      const useMidpoint = rng.bool();
      let p = rng.pick(spots);
      const origIn = (q: number): number => (q <= start ? start + block.length : start) + 1; // 1-based in input
      const copyIn = (q: number): number => q + 1; // the copy starts at the insertion point
      // A midpoint header must be exactly between the copies, or it would be a hint after all.
      if (useMidpoint && (origIn(p) + copyIn(p)) % 2 !== 0) {
        const alt = spots.find((q) => Math.abs(q - p) === 1 && (origIn(q) + copyIn(q)) % 2 === 0);
        if (alt === undefined) continue;
        p = alt;
      }
      const input = [...file.slice(0, p), ...block, ...file.slice(p)];
      if (findBlock(input, block).length !== 2) continue;
      const changed = applyAtHeader(file, h);
      const delta = h.newLines - h.oldLines;
      const pNew = p <= start ? p : p + delta;
      const expected = [...changed.slice(0, pNew), ...block, ...changed.slice(pNew)];
      const mid = (origIn(p) + copyIn(p)) / 2;
      const header = useMidpoint ? `@@ -${mid},${h.oldLines} +${mid},${h.newLines} @@` : '@@';
      const copyBefore = p <= start;
      return {
        files: { [pair.path]: input.join('\n') + '\n' },
        patch: unifiedFor(pair, [{ ...h, header }]),
        expected: { [pair.path]: expected.join('\n') + '\n' },
        variant: `${useMidpoint ? `midpoint header ${mid}` : 'bare @@'}, copy ${copyBefore ? 'before' : 'after'} the original`,
      };
    }
    return null;
  },
};

const SUFFIXES = ['Value', 'Old', '2', 'List', 'Tmp', 's'];

export const wrongDeletedLine: Kind = {
  name: 'wrong-deleted-line',
  group: 'must-not-apply-wrong',
  format: 'unified',
  expectation: 'refuse',
  description: 'one `-` line altered (an identifier renamed) so it matches no line of the file',
  make: ({ pair, rng }) => {
    const file = splitLines(pair.oldText);
    const trimmed = new Set(file.map((l) => l.trim()));
    const hunks = hunksCopy(pair);
    const slots: Array<{ lines: string[]; j: number; text: string }> = [];
    for (const h of hunks) h.lines.forEach((l, j) => l[0] === '-' && /[A-Za-z_]\w{2,}/.test(l) && slots.push({ lines: h.lines, j, text: l.slice(1) }));
    for (const { lines, j, text } of rng.shuffle(slots)) {
      const words = [...text.matchAll(/[A-Za-z_]\w{2,}/g)];
      const w = rng.pick(words);
      const mutated = text.slice(0, w.index) + w[0] + rng.pick(SUFFIXES) + text.slice((w.index ?? 0) + w[0].length);
      if (trimmed.has(mutated.trim())) continue;
      lines[j] = '-' + mutated;
      return { ...singleFile(pair, unifiedFor(pair, hunks), `'${w[0]}' renamed`), expected: null };
    }
    return null;
  },
};
