/** Unified diffs with the header and context defects models produce most often. */
import { splitLines, recount, type UHunk } from '../diff-model';
import { hasMarker, hunksCopy, leadingContext, locatableWithoutLineNumbers, singleFile, trailingContext, unifiedFor } from './common';
import type { Kind } from './types';

export const clean: Kind = {
  name: 'clean',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'the real diff between the two versions, 3 lines of context, correct headers',
  make: ({ pair }) => singleFile(pair, unifiedFor(pair)),
};

export const wrongLineNumbers: Kind = {
  name: 'wrong-line-numbers',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'every hunk header shifted by 3-40 lines, and its counts off by 1-2 (sources whose hunk texts are unique)',
  make: ({ pair, rng }) => {
    if (!locatableWithoutLineNumbers(pair)) return null;
    const notes: string[] = [];
    const hunks = hunksCopy(pair).map((h) => {
      const offset = rng.int(3, 40) * (rng.bool() ? 1 : -1);
      const oldStart = Math.max(1, h.oldStart + offset);
      const newStart = Math.max(1, h.newStart + offset + rng.int(-2, 2));
      const oldLines = Math.max(1, h.oldLines + rng.pick([-2, -1, 1, 2]));
      const newLines = Math.max(1, h.newLines + rng.pick([-2, -1, 1, 2]));
      notes.push(`${offset >= 0 ? '+' : ''}${offset}`);
      return { ...h, header: `@@ -${oldStart},${oldLines} +${newStart},${newLines} @@` };
    });
    return singleFile(pair, unifiedFor(pair, hunks), `offsets ${notes.join(' ')}`);
  },
};

export const missingLineNumbers: Kind = {
  name: 'missing-line-numbers',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'bare `@@` hunk headers with no numbers (sources whose hunk texts are unique)',
  make: ({ pair }) =>
    locatableWithoutLineNumbers(pair)
      ? singleFile(
          pair,
          unifiedFor(
            pair,
            hunksCopy(pair).map((h) => ({ ...h, header: '@@' })),
          ),
        )
      : null,
};

export const hunksOutOfOrder: Kind = {
  name: 'hunks-out-of-order',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'the hunks of a 2-6 hunk diff in a shuffled order (headers still correct)',
  make: ({ pair, rng }) => {
    if (pair.hunks.length < 2) return null;
    const order = pair.hunks.map((hunk, i) => ({ hunk, i }));
    let shuffled = rng.shuffle(order);
    while (shuffled.every(({ i }, k) => i === k)) shuffled = rng.shuffle(order);
    const hunks = shuffled.map(({ hunk }) => hunk);
    return singleFile(pair, unifiedFor(pair, hunks), `order ${shuffled.map(({ i }) => i).join(',')}`);
  },
};

export const droppedContext: Kind = {
  name: 'dropped-context',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: "1-2 context lines removed at a hunk's start or end (headers recounted)",
  make: ({ pair, rng }) => {
    const notes: string[] = [];
    const hunks = hunksCopy(pair).map((h, i) => {
      if (!rng.bool(0.6)) return h;
      const dropped = dropContext(h, rng.bool() ? 'start' : 'end', rng.int(1, 2));
      if (dropped !== h) notes.push(`#${i}`);
      return dropped;
    });
    if (notes.length === 0) {
      // Make sure every case drops something: the first hunk that allows it.
      for (const [i, h] of hunks.entries()) {
        const dropped = (['start', 'end'] as const).map((side) => dropContext(h, side, 1)).find((d) => d !== h);
        if (dropped) {
          hunks[i] = dropped;
          notes.push(`#${i}`);
          break;
        }
      }
    }
    if (notes.length === 0) return null;
    return singleFile(pair, unifiedFor(pair, hunks), `dropped in ${notes.join(' ')}`);
  },
};

/** Removes up to `count` context lines from one end, always leaving at least one there. */
function dropContext(h: UHunk, side: 'start' | 'end', count: number): UHunk {
  if (side === 'start') {
    const k = Math.min(count, leadingContext(h) - 1);
    if (k <= 0) return h;
    return recount({ ...h, lines: h.lines.slice(k), oldStart: h.oldStart + k, newStart: h.newStart + k });
  }
  if (hasMarker(h)) return h; // the last line's missing newline must stay attached to it
  const k = Math.min(count, trailingContext(h) - 1);
  if (k <= 0) return h;
  return recount({ ...h, lines: h.lines.slice(0, h.lines.length - k) });
}

export const extraContext: Kind = {
  name: 'extra-context',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: '1-2 more true context lines from the file before or after a hunk (headers recounted)',
  make: ({ pair, rng }) => {
    const file = splitLines(pair.oldText);
    const hunks = hunksCopy(pair);
    const notes: string[] = [];
    for (const i of rng.shuffle(hunks.map((_, j) => j))) {
      if (notes.length > 0 && !rng.bool(0.5)) continue;
      const h = hunks[i]!; // i is one of hunks' own indices
      const k = rng.int(1, 2);
      const [prev, next] = [hunks[i - 1], hunks[i + 1]];
      const prevEnd = prev ? prev.oldStart + prev.oldLines - 1 : 0; // 1-based last line
      const nextStart = next ? next.oldStart : file.length + 1;
      const first = h.oldStart; // 1-based first old line (h.oldLines > 0 for diffs with context)
      const last = h.oldStart + h.oldLines - 1;
      const canBefore = h.oldLines > 0 && first - k > prevEnd;
      const canAfter = h.oldLines > 0 && !hasMarker(h) && last + k < nextStart;
      const side = canBefore && canAfter ? (rng.bool() ? 'before' : 'after') : canBefore ? 'before' : canAfter ? 'after' : null;
      if (!side) continue;
      if (side === 'before') {
        const extra = file.slice(first - 1 - k, first - 1).map((l) => ' ' + l);
        hunks[i] = recount({ ...h, lines: [...extra, ...h.lines], oldStart: h.oldStart - k, newStart: h.newStart - k });
      } else {
        const extra = file.slice(last, last + k).map((l) => ' ' + l);
        hunks[i] = recount({ ...h, lines: [...h.lines, ...extra] });
      }
      notes.push(`#${i} +${k} ${side}`);
    }
    if (notes.length === 0) return null;
    return singleFile(pair, unifiedFor(pair, hunks), notes.join(', '));
  },
};
