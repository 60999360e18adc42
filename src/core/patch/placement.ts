import type { Hunk } from './types';
import type { Variant } from './locate';
import type { Candidate } from './match';
import type { Eol } from './text';

/** One hunk placed in a file: which variant of it matched where, and how sure the match is. */
export interface Placed {
  hunk: Hunk;
  variant: Variant;
  cand: Candidate;
  confidence: number;
  end: number;
  note?: string;
  /** The text of each added line (see planAddedLines), set once the placement is final. */
  texts?: Map<number, string>;
  /** The ending of each added line (see planEndings), set with `texts`. */
  eols?: Map<number, Eol>;
}

/** One past the last file line a candidate covers (its start for a pure insertion). */
export const endOf = (c: Candidate) => (c.map.length ? c.map[c.map.length - 1]! + 1 : c.start);

/** Top-down file order; at one start an insertion (empty range) comes before the lines replaced there. */
export const topDown = (a: Placed, b: Placed) => a.cand.start - b.cand.start || a.end - b.end || a.hunk.index - b.hunk.index;

/** For each variant line: the 0-based file line its old-side line matched (-1 for added lines). */
export function fileLineOfOld(variant: Variant, cand: Candidate): number[] {
  let k = 0;
  return variant.lines.map((l) => (l.kind === 'add' ? -1 : cand.map[k++]!));
}
