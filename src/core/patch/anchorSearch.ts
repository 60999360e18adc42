/**
 * Finds the first file line after a given line whose indentation-level key is an anchor line
 * (`@@ def foo():` in apply_patch, the section heading after a unified `@@ ... @@`): equal to it,
 * or starting with it when the anchor has at least 4 characters (git cuts long headings).
 *
 * The first lookups scan forward from the floor, which is cheapest for a patch with a few hunks.
 * Once scanning has read several times the file, the distinct keys are sorted once, so keys that
 * start with an anchor form one run found by binary search: a patch whose every hunk carries a
 * heading then costs patch + file, not hunks x lines (test/unit/patch/apply/scaling.test.ts).
 */

/** Anchors shorter than this match only a whole line, never a prefix. */
export const MIN_PREFIX_ANCHOR = 4;
/** Lines scanned (as multiples of the file length) before the sorted index is built. */
const SCAN_BUDGET_FILES = 4;

export class AnchorSearch {
  private scanBudget: number;
  private sorted: string[] | undefined;
  private readonly matches = new Map<string, number[]>();

  /** `keys`: the file's indentation-level keys; `positionsOf`: key -> its lines (built on demand). */
  constructor(
    private readonly keys: readonly string[],
    private readonly positionsOf: () => { get(key: string): readonly number[]; keys(): Iterable<string> },
    /** Counts the lines a scan looks at (FileIndex's LineWork). */
    private readonly work: { lines: number },
  ) {
    this.scanBudget = SCAN_BUDGET_FILES * Math.max(keys.length, 1);
  }

  /** The first 0-based line after `floor` whose key matches `anchor`, or undefined. */
  firstAfter(anchor: string, floor: number): number | undefined {
    if (!this.sorted && this.scanBudget > 0) return this.scan(anchor, floor);
    const hits = this.matching(anchor);
    let lo = 0;
    let hi = hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (hits[mid]! > floor) hi = mid;
      else lo = mid + 1;
    }
    return lo < hits.length ? hits[lo] : undefined;
  }

  private scan(anchor: string, floor: number): number | undefined {
    const keys = this.keys;
    for (let q = floor + 1; q < keys.length; q++) {
      this.scanBudget--;
      this.work.lines++;
      if (matchesAnchor(keys[q]!, anchor)) return q;
    }
    return undefined;
  }

  /** Every line matching `anchor`, ascending; cached per anchor. */
  private matching(anchor: string): readonly number[] {
    let hits = this.matches.get(anchor);
    if (hits) return hits;
    const positionsOf = this.positionsOf();
    this.sorted ??= [...positionsOf.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); // code-unit order: prefix runs are contiguous
    const sorted = this.sorted;
    hits = [];
    if (anchor.length < MIN_PREFIX_ANCHOR) hits = [...positionsOf.get(anchor)];
    else {
      for (let i = lowerBound(sorted, anchor); i < sorted.length && sorted[i]!.startsWith(anchor); i++)
        for (const q of positionsOf.get(sorted[i]!)) hits.push(q);
      hits.sort((a, b) => a - b);
    }
    this.matches.set(anchor, hits);
    return hits;
  }
}

export function matchesAnchor(key: string, anchor: string): boolean {
  return key === anchor || (anchor.length >= MIN_PREFIX_ANCHOR && key.startsWith(anchor));
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
