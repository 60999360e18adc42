import type { HunkLine } from './types';
import type { Eol, FileLine, SplitText } from './text';

/**
 * The line ending of each added line of one placed hunk, decided so that a byte-different result
 * is never reported as certain (test/unit/patch/apply/eolTable.test.ts, eolProperty.test.ts).
 *
 * - The patch's own endings, when they are proven (see `literal`): git writes them byte for byte.
 * - A file with one kind of ending (or none): that kind. The file's convention is certain.
 * - A file that mixes endings, per run of changed lines: the one ending every line of the patch
 *   text had, when the file has that ending on every line the hunk shares with it (a real diff
 *   of such lines writes no other); else the ending of the lines the run replaces when they agree
 *   (line for line when they differ and the counts match), else the ending of the lines around it
 *   when they agree, else the file's most common ending. Each of these is an inference: the hunk
 *   gets a note saying so and is not reported as exact.
 * - When even that is a tie (the lines around differ and the file has as many CRLF as LF lines),
 *   nothing says which ending was meant: the hunk is refused.
 */
export type EndingPlan = { kind: 'ok'; eols: Map<number, Eol>; inferred?: string } | { kind: 'refused'; reason: string };

export interface EndingInput {
  lines: readonly HunkLine[];
  /** 0-based file line of each non-added line (-1 for added lines). */
  fileOf: readonly number[];
  /** 0-based file lines the placement covers: [start, end). */
  start: number;
  end: number;
  /** The patch's endings are the file's bytes wherever they share a line. */
  literal: boolean;
  /** Every line of the patch text ended in CRLF (Hunk.crlfPatch). */
  crlfPatch?: boolean;
}

const NAME: Record<Eol, string> = { '\r\n': 'CRLF', '\n': 'LF' };

export function planEndings(input: EndingInput, file: SplitText): EndingPlan {
  const { lines, fileOf } = input;
  const eols = new Map<number, Eol>();
  const fileLines = file.lines;
  const uniform: Eol | undefined = file.crlfCount === 0 ? '\n' : file.lfCount === 0 ? '\r\n' : undefined;
  const inferred = new Set<string>();
  const patchSays = uniformPatchEnding(input, fileLines);
  for (let i = 0; i < lines.length;) {
    if (lines[i]!.kind === 'context') {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j]!.kind !== 'context') j++;
    const added: number[] = [];
    const removed: number[] = [];
    for (let k = i; k < j; k++) (lines[k]!.kind === 'add' ? added : removed).push(k);
    const open: number[] = [];
    for (const k of added) {
      const own = lines[k]!.eol;
      if (input.literal && own) eols.set(k, own);
      else if (uniform) eols.set(k, uniform);
      else open.push(k);
    }
    if (open.length > 0 && patchSays) {
      for (const k of open) eols.set(k, patchSays);
      inferred.add(`${NAME[patchSays]} as every line of the patch, which the lines it shares with the file have too`);
    } else if (open.length > 0) {
      const decided = inferRun(open, removed, neighbours(i, j, input, fileLines), file, fileOf, fileLines);
      if (decided.kind === 'refused') return decided;
      for (const [k, eol] of decided.eols) eols.set(k, eol);
      inferred.add(decided.how);
    }
    i = j;
  }
  return inferred.size > 0
    ? { kind: 'ok', eols, inferred: `line endings inferred: ${[...inferred].join('; ')} (the file mixes CRLF and LF and the patch's endings do not say)` }
    : { kind: 'ok', eols };
}

/**
 * The ending every line of the patch text had, when no line carries its own and the file has it
 * on every line the hunk shares with it (the last line, without an ending, says nothing).
 */
function uniformPatchEnding(input: EndingInput, fileLines: readonly FileLine[]): Eol | undefined {
  if (input.lines.some((l) => l.eol)) return undefined;
  const eol: Eol = input.crlfPatch ? '\r\n' : '\n';
  for (let i = 0; i < input.lines.length; i++) {
    if (input.lines[i]!.kind === 'add') continue;
    const own = fileLines[input.fileOf[i]!]!.eol;
    if (own !== '' && own !== eol) return undefined;
  }
  return eol;
}

type RunDecision = { kind: 'ok'; eols: Map<number, Eol>; how: string } | { kind: 'refused'; reason: string };

function inferRun(
  open: readonly number[],
  removed: readonly number[],
  around: { above?: Eol; below?: Eol; line: number },
  file: SplitText,
  fileOf: readonly number[],
  fileLines: readonly FileLine[],
): RunDecision {
  const all = (eol: Eol, how: string): RunDecision => ({ kind: 'ok', eols: new Map(open.map((k) => [k, eol])), how });
  const replaced = removed.map((k) => fileLines[fileOf[k]!]!.eol);
  const known = [...new Set(replaced.filter((e): e is Eol => e !== ''))];
  if (known.length === 1) return all(known[0]!, `${NAME[known[0]!]} like the line(s) replaced at line ${fileOf[removed[0]!]! + 1}`);
  if (known.length > 1 && replaced.length === open.length && replaced.every((e) => e !== '')) {
    return {
      kind: 'ok',
      eols: new Map(open.map((k, n) => [k, replaced[n] as Eol])),
      how: `line for line like the lines replaced at line ${fileOf[removed[0]!]! + 1}`,
    };
  }
  const { above, below } = around;
  if (above && (!below || below === above)) return all(above, `${NAME[above]} like the line(s) around line ${around.line}`);
  if (below && !above) return all(below, `${NAME[below]} like the line below line ${around.line}`);
  if (file.crlfCount !== file.lfCount) {
    const most = file.dominantEol;
    return all(most, `${NAME[most]}, the file's most common ending (the lines around line ${around.line} differ)`);
  }
  return {
    kind: 'refused',
    reason:
      `cannot tell which line ending its new lines take: the file has as many CRLF as LF lines (${file.crlfCount} each), ` +
      `the lines around line ${around.line} end differently${known.length > 1 ? ' and so do the lines it replaces' : ''}, ` +
      "and the patch's own line endings do not say (every line of it ends alike, or they differ from the file's); " +
      'send the patch with each line ending as in the file (as `git diff` writes it), or replace a neighbouring line too so the new lines take its ending',
  };
}

/** Endings of the file lines just above and below a run of changed lines i..j-1 (none for a last line without one). */
function neighbours(i: number, j: number, input: EndingInput, fileLines: readonly FileLine[]): { above?: Eol; below?: Eol; line: number } {
  const { lines, fileOf } = input;
  let before = -1;
  for (let k = i - 1; k >= 0 && before < 0; k--) if (lines[k]!.kind !== 'add') before = fileOf[k]!;
  let firstRemoved = -1;
  let lastRemoved = -1;
  for (let k = i; k < j; k++) {
    if (lines[k]!.kind !== 'remove') continue;
    if (firstRemoved < 0) firstRemoved = fileOf[k]!;
    lastRemoved = fileOf[k]!;
  }
  let after = -1;
  for (let k = j; k < lines.length && after < 0; k++) if (lines[k]!.kind !== 'add') after = fileOf[k]!;
  const aboveLine = firstRemoved >= 0 ? firstRemoved - 1 : before >= 0 ? before : input.start - 1;
  const belowLine = lastRemoved >= 0 ? lastRemoved + 1 : after >= 0 ? after : input.end;
  const eolAt = (q: number): Eol | undefined => {
    const e = q >= 0 && q < fileLines.length ? fileLines[q]!.eol : '';
    return e === '' ? undefined : e;
  };
  // The old last line has no ending of its own (it takes the new lines' one): look past it.
  const above = eolAt(aboveLine) ?? (aboveLine === fileLines.length - 1 ? eolAt(aboveLine - 1) : undefined);
  return { above, below: eolAt(belowLine), line: aboveLine + 2 };
}

/**
 * Whether the line endings the patch carries (see HunkLine.eol) are the file's bytes: every line
 * it shares with the file has the same ending there. Then an added line keeps its own ending, as
 * git writes it (a CRLF line in a mixed file, a LF one in a CRLF file); otherwise (a diff made on
 * a CRLF checkout of an LF file) planEndings decides from the file.
 */
export function endingsProven(lines: readonly HunkLine[], fileOf: readonly number[], fileLines: readonly FileLine[]): boolean {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.kind === 'add' || !l.eol) continue;
    const own = fileLines[fileOf[i]!]!.eol;
    if (own !== '' && own !== l.eol) return false;
  }
  return true;
}

/**
 * The old last line had no ending; when new lines now follow it, it takes the ending of the line
 * after it (decided by planEndings), so joinText never has to guess one.
 */
export function giveOldLastLineAnEnding(lines: FileLine[], split: SplitText): void {
  const old = split.lines[split.lines.length - 1];
  if (!old || old.eol !== '') return;
  const at = lines.lastIndexOf(old);
  if (at >= 0 && at < lines.length - 1) lines[at] = { text: old.text, eol: lines[at + 1]!.eol || endingAbove(lines, at, split) };
}

/** A line that must gain an ending takes the one of the nearest line above that has one. */
export function endingAbove(lines: readonly FileLine[], at: number, split: SplitText): Eol {
  for (let k = at - 1; k >= 0; k--) {
    const e = lines[k]!.eol;
    if (e !== '') return e;
  }
  return split.dominantEol;
}
