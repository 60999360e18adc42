import type { StructuredPatchHunk } from 'diff';

/**
 * A fast line diff for the reverse patch. Patches change few, small regions of big files, so a
 * linear walk that re-synchronises on the nearest equal line (found through a hash of the other
 * side) is much cheaper than a full Myers diff; every line it calls equal really is equal, so the
 * result is always a correct diff, just not guaranteed minimal.
 */

interface Side {
  /** Line content including a trailing '\r'; the last line without newline is tagged. */
  keys: string[];
  text: string[];
  /** True when the last line has no newline. */
  noEol: boolean;
}

const NO_EOL = '\u0000no-eol';

function sideOf(s: string): Side {
  if (s === '') return { keys: [], text: [], noEol: false };
  const text = s.split('\n');
  const noEol = text[text.length - 1] !== '';
  if (!noEol) text.pop();
  const keys = text.slice();
  if (noEol) keys[keys.length - 1] += NO_EOL;
  return { keys, text, noEol };
}

/** How far ahead re-synchronisation looks before calling the rest one changed block. */
const LOOKAHEAD = 4000;
/** Edit distance tried by direct comparison before building a hash of the other side. */
const NEAR = 40;

function regions(a: string[], b: string[]): Region[] {
  const out: Region[] = [];
  let i = 0;
  let j = 0;
  let bIndex: Map<string, number[]> | undefined;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    // Lines differ: find the cheapest (di + dj) with a[i+di] === b[j+dj], confirmed by the next
    // line too. Small edits resync within a few lines: try those diagonals first, then a hash.
    const synced = (di: number, dj: number) => a[i + di] === b[j + dj] && (i + di + 1 >= a.length || j + dj + 1 >= b.length || a[i + di + 1] === b[j + dj + 1]);
    let best: [number, number] | undefined;
    for (let d = 1; d <= NEAR && !best; d++) {
      for (let di = 0; di <= d; di++) {
        if (i + di <= a.length && j + d - di <= b.length && (i + di === a.length || j + d - di === b.length ? false : synced(di, d - di))) {
          best = [di, d - di];
          break;
        }
      }
    }
    if (!best) {
      if (!bIndex) {
        bIndex = new Map();
        for (let q = 0; q < b.length; q++) {
          const list = bIndex.get(b[q]!);
          if (list) list.push(q);
          else bIndex.set(b[q]!, [q]);
        }
      }
      for (let di = 0; i + di < a.length && di < LOOKAHEAD && (!best || di < best[0] + best[1]); di++) {
        const hits = bIndex.get(a[i + di]!);
        if (!hits) continue;
        for (const q of hits) {
          if (q < j) continue;
          const dj = q - j;
          if (best && di + dj >= best[0] + best[1]) break;
          if (synced(di, dj)) {
            best = [di, dj];
            break;
          }
        }
      }
    }
    const [di, dj] = best ?? [a.length - i, b.length - j];
    out.push({ a0: i, a1: i + di, b0: j, b1: j + dj });
    i += di;
    j += dj;
  }
  return out;
}

/** What the hunk formatter needs from one side: its lines (with any '\r') and the last-line state. */
export interface SideView {
  length: number;
  text(i: number): string;
  /** True when the last line has no newline. */
  noEol: boolean;
}

export interface Region {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** Unified-diff hunks (jsdiff's structure) from `oldStr` to `newStr` with `context` lines around changes. */
export function diffHunks(oldStr: string, newStr: string, context = 3): StructuredPatchHunk[] {
  const A = sideOf(oldStr);
  const B = sideOf(newStr);
  const view = (s: Side): SideView => ({ length: s.text.length, text: (i) => s.text[i]!, noEol: s.noEol });
  return formatRegions(view(A), view(B), regions(A.keys, B.keys), context);
}

/** Hunks from changed regions (ascending, non-overlapping); everything between them is equal. */
export function formatRegions(A: SideView, B: SideView, regs: readonly Region[], context = 3): StructuredPatchHunk[] {
  const hunks: StructuredPatchHunk[] = [];
  let k = 0;
  while (k < regs.length) {
    // Group regions whose context would touch.
    let last = k;
    while (last + 1 < regs.length && regs[last + 1]!.a0 - regs[last]!.a1 <= 2 * context) last++;
    const first = regs[k]!;
    const end = regs[last]!;
    const pre = Math.min(context, first.a0);
    const post = Math.min(context, A.length - end.a1);
    const lines: string[] = [];
    const push = (prefix: string, side: SideView, idx: number) => {
      lines.push(prefix + side.text(idx));
      if (side.noEol && idx === side.length - 1) lines.push('\\ No newline at end of file');
    };
    for (let q = first.a0 - pre; q < first.a0; q++) push(' ', A, q);
    for (let r = k; r <= last; r++) {
      const g = regs[r]!;
      for (let q = g.a0; q < g.a1; q++) push('-', A, q);
      for (let q = g.b0; q < g.b1; q++) push('+', B, q);
      const nextA = r < last ? regs[r + 1]!.a0 : g.a1 + post;
      for (let q = g.a1; q < nextA; q++) push(' ', A, q);
    }
    const oldLines = end.a1 + post - (first.a0 - pre);
    const newLines = end.b1 + post - (first.b0 - pre);
    // jsdiff's convention: for an empty side, start is the line after the insertion point.
    hunks.push({ oldStart: first.a0 - pre + 1, oldLines, newStart: first.b0 - pre + 1, newLines, lines });
    k = last + 1;
  }
  return hunks;
}
