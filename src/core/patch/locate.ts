import type { Hunk, HunkLine, MatchStrategy, PatchFormat } from './types';
import type { FileIndex } from './fileIndex';
import { findContiguous, findWithGaps, type Candidate } from './match';
import { foldUnicode, indentOf, isBlank, keyAt, LEVELS, similarity, type Level } from './normalize';
import { anchoredAtEdges, oneSidedReason, openEdges } from './oneSided';

/**
 * Locates one hunk: tries the hunk as written at every level (strictest first), then a few
 * carefully bounded repairs (a missing `+`, dropped middle context, stale edge context). Returns
 * every candidate at the first level that matches; the caller resolves ties with line hints.
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

export type Located = { kind: 'found'; variant: Variant; cands: Candidate[]; anchorMissed: boolean } | { kind: 'none' } | { kind: 'refused'; reason: string };

const STRICT: readonly Level[] = ['exact', 'trailing-whitespace', 'unicode'];
const NEAR_STRICT: readonly Level[] = ['exact', 'trailing-whitespace', 'unicode', 'indentation'];
/** Similarity above which a file line is the stale version of a patch line, not a different line. */
const SAME_LINE = 0.5;
const MAX_TRIM = 3;

export const oldSide = (lines: readonly HunkLine[]): string[] => lines.filter((l) => l.kind !== 'add').map((l) => l.text);

function asAdd(lines: readonly HunkLine[], which: ReadonlySet<number>): HunkLine[] {
  return lines.map((l, i) => (which.has(i) ? { ...l, kind: 'add' as const } : l));
}

function* variants(hunk: Hunk): Generator<Variant> {
  const lines = hunk.lines;
  yield { lines, factor: 1, topTrim: 0, levels: LEVELS };

  // SEARCH/REPLACE: blank lines at the edges of SEARCH that the file does not have there.
  if (hunk.looseBlankEdges) {
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

  // A missing `+`: the parser flagged lines without a prefix. Header counts that tally the
  // line as context (the model meant it so) forbid the reading.
  const flagged = lines.flatMap((l, i) => (l.unprefixed && l.kind === 'context' ? [i] : []));
  if (flagged.length > 0 && !countsMatch(hunk, lines)) {
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

  // Dropped context in the middle: gaps allowed only between two old lines with no added line
  // between them, so the place of every added line stays unambiguous.
  const oldIdx = lines.flatMap((l, i) => (l.kind === 'add' ? [] : [i]));
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

  // Stale context at the edges: trim up to MAX_TRIM context lines from the outer edges.
  let lead = 0;
  while (lead < lines.length && lines[lead]!.kind === 'context') lead++;
  let trail = 0;
  while (trail < lines.length - lead && lines[lines.length - 1 - trail]!.kind === 'context') trail++;
  const oldCount = oldIdx.length;
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

  // A context line that is really new (a space prefix where `+` belonged): one line at a time,
  // and only when the header's counts say exactly one old-side line too many. Without that, a
  // context line absent from the file is a context line the model got wrong, not a new one.
  const newCount = lines.filter((l) => l.kind !== 'remove').length;
  const oneTooMany = hunk.oldCount !== undefined && hunk.newCount === newCount && oldCount - hunk.oldCount === 1;
  const pool = oneTooMany ? oldIdx : [];
  const interior = pool.filter((i) => lines[i]!.kind === 'context' && !lines[i]!.unprefixed && !isBlank(lines[i]!.text));
  if (interior.length <= 30) {
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

function endOf(c: Candidate): number {
  return c.map.length ? c.map[c.map.length - 1]! + 1 : c.start;
}

/**
 * A line written as ` foo` that is really new was either `+foo` with the `+` turned into a space,
 * or `+ foo` with the `+` dropped. Its indentation decides: exactly one reading must line up with
 * the nearest non-blank line above or below it in the hunk, else nobody can tell and it is refused.
 */
function settleSpacePrefixed(v: Variant): Variant | null {
  const i = v.spacePrefixed;
  if (i === undefined) return v;
  const text = v.lines[i]!.text;
  // Block-comment continuation lines (` * foo`) sit one column off the code around them, so a
  // line is compared only with neighbours of its own sort.
  const starry = (t: string) => t.trimStart().startsWith('*');
  const neighbour = (step: number): string | undefined => {
    for (let j = i + step; j >= 0 && j < v.lines.length; j += step) {
      // Removed lines count: a rewritten line usually keeps the indentation of the one it replaces.
      const l = v.lines[j]!;
      if (!isBlank(l.text) && starry(l.text) === starry(text)) return indentOf(l.text);
    }
    return undefined;
  };
  const around = [neighbour(-1), neighbour(1)].filter((x): x is string => x !== undefined);
  const readings = [text, ' ' + text].filter((r) => around.includes(indentOf(r)));
  if (readings.length !== 1) return null;
  const lines = v.lines.slice();
  lines[i] = { ...lines[i]!, text: readings[0]! };
  return { ...v, lines, spacePrefixed: undefined, recovered: [lines[i]!] };
}

/** Checks the repairs a variant made are justified at this candidate. */
function justified(index: FileIndex, v: Variant, c: Candidate): boolean {
  if (v.recovered) {
    // The lines the hunk keeps (and the ones just outside it) must not already hold the line; a
    // line the hunk removes may (a rewrite often re-adds a removed line re-indented).
    const removed = new Set<number>();
    let k = 0;
    for (const l of v.lines) {
      if (l.kind === 'add') continue;
      if (l.kind === 'remove') removed.add(c.map[k]!);
      k++;
    }
    const region = new Set<string>();
    const from = Math.max(0, c.start - 1);
    const to = Math.min(index.length, endOf(c) + 1);
    for (let q = from; q < to; q++) if (!removed.has(q)) region.add(keyAt('indentation', index.lines[q]!));
    for (const r of v.recovered) if (region.has(keyAt('indentation', r.text))) return false;
    // A recovered line at an edge with a look-alike file line next to it is stale context, not new.
    const first = v.lines.findIndex((l) => l.kind !== 'add');
    const last = v.lines.length - 1 - [...v.lines].reverse().findIndex((l) => l.kind !== 'add');
    for (const r of v.recovered) {
      const at = v.lines.findIndex((l) => l.text === r.text && l.kind === 'add');
      if (at < first && c.start > 0 && similarity(r.text, index.lines[c.start - 1]!) >= SAME_LINE) return false;
      if (at > last && endOf(c) < index.length && similarity(r.text, index.lines[endOf(c)]!) >= SAME_LINE) return false;
    }
  }
  const top = v.trimmedTop ?? [];
  for (let k = 0; k < top.length; k++) {
    if (!staleOk(top[k]!.text, index.lines[c.start - top.length + k])) return false;
  }
  const bottom = v.trimmedBottom ?? [];
  for (let k = 0; k < bottom.length; k++) {
    if (!staleOk(bottom[k]!.text, index.lines[endOf(c) + k])) return false;
  }
  return true;
}

/** A trimmed context line is accepted as stale only when the file has a look-alike line in its place. */
function staleOk(patchLine: string, fileLine: string | undefined): boolean {
  if (fileLine === undefined) return isBlank(patchLine);
  if (isBlank(patchLine) || isBlank(fileLine)) return isBlank(patchLine) && isBlank(fileLine);
  return similarity(patchLine, fileLine) >= SAME_LINE;
}

/** 0-based lines after which the hunk is expected (apply_patch `@@ anchor` chain), or null if not found. */
function anchorFloors(index: FileIndex, anchors: readonly string[]): number[] | null {
  if (anchors.length === 0) return null;
  let floors = [-1];
  for (const raw of anchors) {
    const a = foldUnicode(raw).trim();
    if (!a) continue;
    const next = new Set<number>();
    for (const f of floors) {
      const q = index.anchors.firstAfter(a, f);
      if (q !== undefined) next.add(q);
    }
    if (next.size === 0) return null;
    floors = [...next];
  }
  return floors;
}

/** Applies anchors and `*** End of File` to narrow candidates; never widens them. */
function narrow(index: FileIndex, hunk: Hunk, cands: Candidate[]): { cands: Candidate[]; anchorMissed: boolean } {
  let anchorMissed = false;
  if (cands.length > 1 && hunk.atEndOfFile) {
    const atEnd = cands.filter((c) => endOf(c) >= index.length - (isBlank(index.lines[index.length - 1] ?? 'x') ? 1 : 0));
    if (atEnd.length > 0) cands = atEnd;
  }
  if (hunk.anchors.length > 0) {
    const floors = anchorFloors(index, hunk.anchors);
    if (!floors) anchorMissed = true;
    else if (cands.length > 1) {
      const picks = new Set<Candidate>();
      for (const f of floors) {
        const first = cands.find((c) => c.start >= f);
        if (first) picks.add(first);
      }
      if (picks.size > 0) cands = [...picks];
    }
  }
  return { cands, anchorMissed };
}

/** `format`: whose semantics apply (see ApplyHunksOptions.format). */
export function locateHunk(index: FileIndex, hunk: Hunk, format: PatchFormat = 'unified', numbersUnproven?: string): Located {
  const base = oldSide(hunk.lines);
  if (base.length === 0) return locateInsertion(index, hunk, format === 'apply_patch', numbersUnproven);
  const recoveries: Located[] = [];
  for (const raw of variants(hunk)) {
    const v = settleSpacePrefixed(raw);
    if (!v) continue;
    const old = oldSide(v.lines);
    const gapAllowed = v.gaps ? gapFlags(v.lines) : [];
    for (const level of v.levels) {
      const found = v.gaps ? findWithGaps(index, old, level, gapAllowed) : findContiguous(index, old, level);
      if (found.length === 0) continue;
      let valid = found.filter((c) => justified(index, v, c));
      if (valid.length === 0) break;
      if (format === 'unified') {
        const edges = openEdges(v.lines);
        if (edges.top || edges.bottom) {
          const anchored = anchoredAtEdges(index, edges, valid);
          if (anchored.length === 0) {
            if (v.competing) break;
            return { kind: 'refused', reason: oneSidedReason(index, edges, valid[0]!) };
          }
          valid = anchored;
        }
      }
      const n = narrow(index, hunk, valid);
      if (format === 'unified' && !v.gaps && n.cands.length === 1 && STRICT.includes(level)) {
        const other = shiftedAtNumbers(index, hunk, v, old, n.cands[0]!);
        if (other !== undefined) {
          return {
            kind: 'refused',
            reason:
              `its old side matches as written at line ${n.cands[0]!.start + 1}, but also, indented differently, at line ${other + 1} where its line numbers point; ` +
              "nothing tells which was meant: resend the hunk with the file's own indentation",
          };
        }
      }
      const located: Located = { kind: 'found', variant: v, cands: n.cands, anchorMissed: n.anchorMissed };
      // Single-line recoveries compete: two different lines that could each be "the new one" is a refusal.
      if (v.competing) {
        recoveries.push(located);
        break;
      }
      return located;
    }
  }
  if (recoveries.length === 1) return recoveries[0]!;
  if (recoveries.length > 1) {
    return { kind: 'refused', reason: `${recoveries.length} different context lines could each be a line missing its "+"; mark added lines with "+"` };
  }
  return { kind: 'none' };
}

/**
 * A hunk that matches as written away from its line numbers, and with its indentation shifted
 * exactly where they point: a hunk whose context was indented off by the model can land, as
 * written, on a nested copy of the same lines. The 0-based line its numbers point at, if so.
 */
function shiftedAtNumbers(index: FileIndex, hunk: Hunk, v: Variant, old: readonly string[], found: Candidate): number | undefined {
  if (hunk.oldStart === undefined) return undefined;
  const at = hunk.oldStart - 1 + v.topTrim;
  if (found.start === at) return undefined;
  return findContiguous(index, old, 'indentation').some((c) => c.start === at && c.shift !== 'relative' && c.shift.kind !== 'none') ? at : undefined;
}

function gapFlags(lines: readonly HunkLine[]): boolean[] {
  const oldIdx = lines.flatMap((l, i) => (l.kind === 'add' ? [] : [i]));
  return oldIdx.slice(0, -1).map((a, k) => lines.slice(a + 1, oldIdx[k + 1]).every((l) => l.kind !== 'add'));
}

/**
 * A hunk with no old side: only an empty file, the end of the file, or the place a proven -U0
 * patch gives (see placeByNumbers) are certain. `@@ -0,0` on a file with lines reads both as "the
 * file was empty" (git without --unidiff-zero) and as "insert at the top": refused.
 */
function locateInsertion(index: FileIndex, hunk: Hunk, pureAddAtEnd: boolean, numbersUnproven?: string): Located {
  const at = (start: number, strategy: MatchStrategy): Located => ({
    kind: 'found',
    variant: { lines: hunk.lines, factor: 1, topTrim: 0, levels: ['exact'], strategy },
    cands: [{ start, map: [], level: 'exact', shift: { kind: 'none' } }],
    anchorMissed: false,
  });
  const n = index.length;
  if (n === 0) return at(0, 'exact');
  if (hunk.atEndOfFile) return at(n, 'end-of-file');
  // `@@ -n,0` on an n-line file: after the last line. A bigger number is a wrong hint, not a place.
  if (hunk.oldStart !== undefined && hunk.oldStart === n) return at(n, 'end-of-file');
  if (pureAddAtEnd && hunk.oldStart === undefined && hunk.anchors.length === 0) return at(n, 'end-of-file');
  const numbers = numbersUnproven ? ` (its line numbers cannot place it: ${numbersUnproven})` : '';
  if (hunk.oldStart === 0) {
    return {
      kind: 'refused',
      reason:
        `the hunk has only added lines and \`@@ -0,0\`, which says the file was empty, but it has ${n} line(s)${numbers}; ` +
        'to insert at its start include its first lines as context after the added lines',
    };
  }
  return {
    kind: 'refused',
    reason: `the hunk has only added lines and no context, so its place cannot be verified${numbers}; include 2-3 unchanged lines around the insertion`,
  };
}
