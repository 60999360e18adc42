import type { Hunk, HunkLine, MatchStrategy } from './types';
import { isBlank, LEVELS, type Level } from './normalize';

/**
 * The readings of one hunk the locator tries: the hunk as written, then a few carefully bounded
 * repairs (blank SEARCH edges, a missing `+`, dropped middle context, stale edge context, a
 * context line that is really new). Each repair says how much it costs in confidence.
 */

/** The hunk as it will be applied: possibly with edge context trimmed or lines re-classified. */
export interface Variant {
  lines: HunkLine[];
  strategy?: MatchStrategy;
  /** Multiplies the level's confidence. */
  factor: number;
  /** Old-side lines dropped from the top, to shift the header hint accordingly. */
  topTrim: number;
  note?: string;
  gaps?: boolean;
  levels: readonly Level[];
  /** Lines re-classified from context to add: each must be absent from the matched region. */
  recovered?: HunkLine[];
  trimmedTop?: HunkLine[];
  /** Single-line recoveries: several that fit make the hunk ambiguous. */
  competing?: boolean;
  /** Index of a recovered line that had a space prefix: its true text is ambiguous by one space. */
  spacePrefixed?: number;
  trimmedBottom?: HunkLine[];
}

export const STRICT: readonly Level[] = ['exact', 'trailing-whitespace', 'unicode'];
const NEAR_STRICT: readonly Level[] = ['exact', 'trailing-whitespace', 'unicode', 'indentation'];
const MAX_TRIM = 3;

export const oldSide = (lines: readonly HunkLine[]): string[] => lines.filter((l) => l.kind !== 'add').map((l) => l.text);

function asAdd(lines: readonly HunkLine[], which: ReadonlySet<number>): HunkLine[] {
  return lines.map((l, i) => (which.has(i) ? { ...l, kind: 'add' as const } : l));
}

/** The hunk as written, then each bounded repair of it, in the order they are tried. */
export function* variants(hunk: Hunk): Generator<Variant> {
  yield { lines: hunk.lines, factor: 1, topTrim: 0, levels: LEVELS };
  if (hunk.looseBlankEdges) yield* blankEdgesTrimmed(hunk.lines);
  yield* missingPlusRead(hunk);
  yield* middleContextDropped(hunk.lines);
  yield* staleEdgesTrimmed(hunk.lines);
  yield* contextReadAsAdded(hunk);
}

/** SEARCH/REPLACE: blank lines at the edges of SEARCH that the file does not have there. */
function* blankEdgesTrimmed(lines: HunkLine[]): Generator<Variant> {
  const blankOld = (l: HunkLine) => l.kind !== 'add' && isBlank(l.text);
  let top = 0;
  while (top < lines.length && blankOld(lines[top]!)) top++;
  let bottom = 0;
  while (bottom < lines.length - top && blankOld(lines[lines.length - 1 - bottom]!)) bottom++;
  const kept = lines.slice(top, lines.length - bottom);
  if (top + bottom > 0 && oldSide(kept).length > 0) {
    yield {
      lines: kept,
      strategy: 'context-trimmed',
      factor: 0.95,
      topTrim: top,
      levels: LEVELS,
      note: `ignored ${top + bottom} blank line(s) at the edges of SEARCH that the file does not have there`,
    };
  }
}

/**
 * A missing `+`: the parser flagged lines without a prefix. Header counts that tally the
 * line as context (the model meant it so) forbid the reading.
 */
function* missingPlusRead(hunk: Hunk): Generator<Variant> {
  const lines = hunk.lines;
  const flagged = lines.flatMap((l, i) => (l.unprefixed && l.kind === 'context' ? [i] : []));
  if (flagged.length === 0 || countsMatch(hunk, lines)) return;
  const sets: number[][] = [flagged, flagged.filter((i) => !isBlank(lines[i]!.text))];
  if (flagged.length <= 6) for (const i of flagged) sets.push([i]);
  const seen = new Set<string>();
  for (const set of sets) {
    const id = set.join(',');
    if (set.length === 0 || seen.has(id)) continue;
    seen.add(id);
    const v = asAdd(lines, new Set(set));
    if (oldSide(v).length === 0 || (hasCounts(hunk) && !countsMatch(hunk, v) && countsMatchAny(hunk, lines, flagged))) continue;
    yield {
      lines: v,
      strategy: 'fuzzy',
      factor: 0.85,
      topTrim: 0,
      levels: STRICT,
      recovered: set.map((i) => lines[i]!),
      note: `treated ${set.length} unprefixed line(s) as added: ${set.map((i) => JSON.stringify(lines[i]!.text)).join(', ')}`,
    };
  }
}

/** Indexes of the old-side (context and removed) lines. */
function oldIndexes(lines: readonly HunkLine[]): number[] {
  return lines.flatMap((l, i) => (l.kind === 'add' ? [] : [i]));
}

/**
 * Dropped context in the middle: gaps allowed only between two old lines with no added line
 * between them, so the place of every added line stays unambiguous.
 */
function* middleContextDropped(lines: HunkLine[]): Generator<Variant> {
  const oldIdx = oldIndexes(lines);
  const gapAllowed = oldIdx.slice(0, -1).map((a, k) => lines.slice(a + 1, oldIdx[k + 1]).every((l) => l.kind !== 'add'));
  if (gapAllowed.some(Boolean)) {
    yield {
      lines,
      strategy: 'fuzzy',
      factor: 0.8,
      topTrim: 0,
      levels: NEAR_STRICT,
      gaps: true,
      note: 'context lines missing from the patch were kept from the file',
    };
  }
}

/** Stale context at the edges: trim up to MAX_TRIM context lines from the outer edges. */
function* staleEdgesTrimmed(lines: HunkLine[]): Generator<Variant> {
  let lead = 0;
  while (lead < lines.length && lines[lead]!.kind === 'context') lead++;
  let trail = 0;
  while (trail < lines.length - lead && lines[lines.length - 1 - trail]!.kind === 'context') trail++;
  const oldCount = oldIndexes(lines).length;
  const combos: [number, number][] = [];
  for (let t = 0; t <= Math.min(lead, MAX_TRIM); t++)
    for (let b = 0; b <= Math.min(trail, MAX_TRIM); b++) if (t + b > 0 && t + b <= MAX_TRIM) combos.push([t, b]);
  combos.sort((x, y) => x[0] + x[1] - (y[0] + y[1]));
  for (const [t, b] of combos) {
    const kept = lines.slice(t, lines.length - b);
    const keptOld = oldSide(kept).filter((s) => !isBlank(s)).length;
    if (keptOld < 2 || oldCount - t - b < Math.ceil(oldCount / 2)) continue;
    // A line next to an insertion must match (jsdiff's rule, whatever the fuzz): a kept context
    // line has to stand between a trimmed (mismatching) line and any added line.
    if ((t > 0 && !contextBeforeFirstAdd(kept)) || (b > 0 && !contextBeforeFirstAdd([...kept].reverse()))) continue;
    yield {
      lines: kept,
      strategy: 'context-trimmed',
      factor: 0.9 - 0.08 * (t + b),
      topTrim: t,
      levels: LEVELS,
      trimmedTop: lines.slice(0, t),
      trimmedBottom: lines.slice(lines.length - b),
      note: `ignored ${t + b} context line(s) at the hunk edges that differ from the file`,
    };
  }
}

/**
 * A context line that is really new (a space prefix where `+` belonged): one line at a time,
 * and only when the header's counts say exactly one old-side line too many. Without that, a
 * context line absent from the file is a context line the model got wrong, not a new one.
 */
function* contextReadAsAdded(hunk: Hunk): Generator<Variant> {
  const lines = hunk.lines;
  const oldIdx = oldIndexes(lines);
  const newCount = lines.filter((l) => l.kind !== 'remove').length;
  const oneTooMany = hunk.oldCount !== undefined && hunk.newCount === newCount && oldIdx.length - hunk.oldCount === 1;
  const pool = oneTooMany ? oldIdx : [];
  const interior = pool.filter((i) => lines[i]!.kind === 'context' && !lines[i]!.unprefixed && !isBlank(lines[i]!.text));
  if (interior.length > 30) return;
  for (const i of interior) {
    yield {
      lines: asAdd(lines, new Set([i])),
      strategy: 'fuzzy',
      factor: 0.8,
      topTrim: 0,
      levels: STRICT,
      recovered: [lines[i]!],
      spacePrefixed: i,
      competing: true,
      note: `treated context line ${JSON.stringify(lines[i]!.text)} (absent from the file there) as added`,
    };
  }
}

function contextBeforeFirstAdd(lines: readonly HunkLine[]): boolean {
  for (const l of lines) {
    if (l.kind === 'add') return false;
    if (l.kind === 'context') return true;
  }
  return true;
}

function hasCounts(hunk: Hunk): boolean {
  return hunk.oldCount !== undefined && hunk.newCount !== undefined;
}

/** The header's `@@ -a,b +c,d @@` counts tally exactly these lines. */
function countsMatch(hunk: Hunk, lines: readonly HunkLine[]): boolean {
  if (!hasCounts(hunk)) return false;
  let o = 0;
  let n = 0;
  for (const l of lines) {
    if (l.kind !== 'add') o++;
    if (l.kind !== 'remove') n++;
  }
  return o === hunk.oldCount && n === hunk.newCount;
}

/** Some reading of the flagged lines (each context or added) makes the header counts tally. */
function countsMatchAny(hunk: Hunk, lines: readonly HunkLine[], flagged: readonly number[]): boolean {
  const old = lines.filter((l) => l.kind !== 'add').length;
  const want = old - (hunk.oldCount ?? old);
  return want >= 1 && want <= flagged.length && lines.filter((l) => l.kind !== 'remove').length === hunk.newCount;
}
