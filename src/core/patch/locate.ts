import type { Hunk, HunkLine, MatchStrategy, PatchFormat } from './types';
import type { FileIndex } from './fileIndex';
import { findContiguous, findWithGaps, type Candidate } from './match';
import { foldUnicode, indentOf, isBlank, keyAt, similarity } from './normalize';
import { oldSide, STRICT, variants, type Variant } from './hunkVariants';
import { anchoredAtEdges, oneSidedReason, openEdges } from './oneSided';

/**
 * Locates one hunk: tries the hunk as written at every level (strictest first), then a few
 * carefully bounded repairs (a missing `+`, dropped middle context, stale edge context). Returns
 * every candidate at the first level that matches; the caller resolves ties with line hints.
 */

export { oldSide, type Variant };

export type Located = { kind: 'found'; variant: Variant; cands: Candidate[]; anchorMissed: boolean } | { kind: 'none' } | { kind: 'refused'; reason: string };

/** Similarity above which a file line is the stale version of a patch line, not a different line. */
const SAME_LINE = 0.5;

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
    index.work.lines += to - from;
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
