import type { Variant } from './locate';
import type { Candidate } from './match';
import type { FileLine } from './text';
import { indentOf, similarity } from './normalize';
import { crushes, reindentLine, shiftFromPair, type IndentShift } from './reindent';

/**
 * The text of each added line of a hunk matched at a shifted indentation.
 *
 * The default is the hunk's own shift: a hunk whose old side shifted consistently moves its added
 * lines by that shift; a loosely matched one (context shifted unevenly) moves each by the shift of
 * the nearest line the result keeps (a context line, not a removed one). But a model sometimes
 * writes some added lines at the file's indentation while its context is shifted, so each run of
 * added lines (the lines between two kept non-blank lines) is read both ways: as shifted (S) and as
 * written (W), and, where the run is not consistent in itself, piece by piece (see segmentsOf).
 * A reading is held against what code looks like where it lands (see fits): a line deeper than the
 * line above it only under an opener (or as a continuation), a shallower one only at the depth of
 * an enclosing line, a shift that would remove more indentation than a line has (impossible), and
 * a line rewriting a removed one indented like that line in the file or in the patch. The reading
 * with fewest faults wins. Shifted is kept whenever it is among the best (a hunk written
 * consistently off, the common case, is never second-guessed); another reading is taken only
 * when it alone is best. The caller refuses the file's runs that could go either way once any run
 * of the file showed the model mixed the two (see IndentPlan).
 */
export function planAddedLines(
  variant: Variant,
  cand: Candidate,
  fileOf: readonly number[],
  fileLines: readonly FileLine[],
  /** 0-based file lines the placement covers: [start, end). */
  start: number,
  end: number,
): IndentPlan {
  const lines = variant.lines;
  const texts = new Map<number, string>();
  let written = 0;
  const undetermined: number[] = [];
  // The result's non-blank lines so far: the file above the hunk, then kept and added lines.
  const above: string[] = [];
  for (let q = Math.max(0, start - SCAN); q < start; q++) if (fileLines[q]!.text.trim() !== '') above.push(fileLines[q]!.text);
  for (let i = 0; i < lines.length;) {
    const l = lines[i]!;
    if (l.kind === 'remove' || (l.kind === 'context' && l.text.trim() === '')) {
      i++;
      continue;
    }
    if (l.kind === 'context') {
      above.push(fileLines[fileOf[i]!]!.text);
      i++;
      continue;
    }
    // A run: added lines up to the next non-blank kept line (removed and blank lines between them).
    let j = i;
    while (j < lines.length && (lines[j]!.kind !== 'context' || lines[j]!.text.trim() === '')) j++;
    const run: RunLine[] = [];
    for (let k = i; k < j; k++) {
      const a = lines[k]!;
      if (a.kind !== 'add') continue;
      const shift = shiftOf(variant, cand, k, fileOf, fileLines);
      const s = reindentLine(a.text, shift);
      run.push({ index: k, s, w: a.text, blank: a.text.trim() === '', crushed: crushes(a.text, shift), same: undefined });
    }
    const below = j < lines.length ? fileLines[fileOf[j]!]!.text : fileBelow(fileLines, end);
    const choice = chooseRun(variant, fileOf, fileLines, run, above, below);
    if (choice.kind === 'written') written++;
    if (choice.kind === 'undetermined') undetermined.push(choice.line);
    run.forEach((r, k) => {
      const t = choice.pick[k] ? r.w : r.s;
      texts.set(r.index, t);
      if (t.trim() !== '') above.push(t);
    });
    if (choice.kind === 'ambiguous') return { kind: 'ambiguous', reason: ambiguousReason(cand, lines[choice.line]!.text) };
    i = j;
  }
  return { kind: 'texts', texts, written, undetermined };
}

/**
 * `written`: runs read (in part) as written, which shows the model mixed the two indentations;
 * `undetermined`: hunk lines of runs that fit both ways (applied shifted unless the file mixes).
 */
export type IndentPlan = { kind: 'texts'; texts: Map<number, string>; written: number; undetermined: number[] } | { kind: 'ambiguous'; reason: string };

/** The refusal for a hunk whose added lines mix both indentations where they cannot be told apart. */
export function ambiguousReason(cand: Candidate, line: string): string {
  return (
    `its context is indented ${describeShift(cand.shift)} the file, and its added lines mix both indentations, ` +
    `so \`${line.trim().slice(0, 60)}\` could be meant either way; resend the hunk with the file's own indentation`
  );
}

function describeShift(shift: IndentShift | 'relative'): string {
  if (shift === 'relative') return 'unevenly against';
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const amount = (s: string) => (s.includes('\t') ? n(s.length, 'tab') : n(s.length, 'space'));
  switch (shift.kind) {
    case 'prefix':
      return `${amount(shift.add)} less than`;
    case 'strip':
      return `${amount(shift.remove)} more than`;
    case 'width':
      return shift.delta > 0 ? `${n(shift.delta, 'column')} less than` : `${n(-shift.delta, 'column')} more than`;
    default:
      return 'differently from';
  }
}

interface RunLine {
  index: number;
  /** Shifted and as-written text. */
  s: string;
  w: string;
  blank: boolean;
  /** The shift would remove more indentation than the line has. */
  crushed: boolean;
  same: boolean | undefined;
}

type RunChoice =
  | { kind: 'shifted' | 'written'; pick: boolean[] }
  | { kind: 'undetermined'; pick: boolean[]; line: number }
  | { kind: 'ambiguous'; pick: boolean[]; line: number };

/** Lines of the result above scanned for an enclosing depth. */
const SCAN = 200;
/** Most pieces a run is split into for reading piece by piece (2^n readings). */
const MAX_PIECES = 8;
/** A shift that removes more indentation than a line has cannot be what was meant. */
const CRUSH_COST = 10;

function chooseRun(
  variant: Variant,
  fileOf: readonly number[],
  fileLines: readonly FileLine[],
  run: RunLine[],
  above: readonly string[],
  below: string | undefined,
): RunChoice {
  const allShifted = run.map(() => false);
  if (run.every((r) => r.blank || r.s === r.w)) return { kind: 'shifted', pick: allShifted };
  // The same statement rewritten keeps its depth in the file (true) or in the patch (false).
  for (const r of run) {
    if (r.blank || r.s === r.w) continue;
    r.same = writtenLikeReplaced(variant, r.index, fileOf, fileLines, r.s, above[above.length - 1]);
  }
  const nonBlank = run.filter((r) => !r.blank);
  const pieces = segmentsOf(nonBlank);
  const readings: boolean[][] = [];
  if (pieces.length <= MAX_PIECES) {
    for (let m = 0; m < 1 << pieces.length; m++) readings.push(pieces.map((_, p) => ((m >> p) & 1) === 1));
  } else {
    readings.push(
      pieces.map(() => false),
      pieces.map(() => true),
    );
  }
  const costs = readings.map((rd) => costOf(nonBlank, pieces, rd, above, below));
  const best = Math.min(...costs);
  const pickOf = (rd: boolean[]): boolean[] => {
    const byLine = new Map<RunLine, boolean>();
    pieces.forEach((pc, p) => pc.forEach((r) => byLine.set(r, rd[p]!)));
    // A blank line keeps whatever it was written as (reindentLine leaves blanks alone).
    return run.map((r) => byLine.get(r) ?? false);
  };
  const firstLine = nonBlank.find((r) => r.s !== r.w)?.index ?? run[0]!.index;
  const ties = costs.filter((c) => c === best).length;
  if (costs[0] === best) {
    // Shifted is among the best: kept, unless another reading is as good (then it is the default only).
    if (ties === 1) return { kind: 'shifted', pick: allShifted };
    // Another reading is as good: without a fault in the shifted one, it is the default; with one, nothing tells them apart.
    return best === 0 ? { kind: 'undetermined', pick: allShifted, line: firstLine } : { kind: 'ambiguous', pick: allShifted, line: firstLine };
  }
  if (ties === 1) return { kind: 'written', pick: pickOf(readings[costs.indexOf(best)]!) };
  // The shifted reading is out, and more than one other fits: nothing tells which.
  return { kind: 'ambiguous', pick: allShifted, line: firstLine };
}

/**
 * The run's non-blank lines split where one line follows the one above it in neither reading
 * (see fits): within a piece the lines agree with each other, so they were written in one frame.
 */
function segmentsOf(run: readonly RunLine[]): RunLine[][] {
  const pieces: RunLine[][] = [];
  let cur: RunLine[] = [];
  for (const r of run) {
    const prev = cur[cur.length - 1];
    // A line the shift would crush was written for the file; its neighbours may not have been.
    if (prev && ((!fits([prev.s], r.s) && !fits([prev.w], r.w)) || prev.crushed !== r.crushed)) {
      pieces.push(cur);
      cur = [];
    }
    cur.push(r);
  }
  if (cur.length) pieces.push(cur);
  return pieces;
}

/** Faults of one reading (true = piece as written): where pieces meet their neighbours, crushed lines, rewritten statements. */
function costOf(
  run: readonly RunLine[],
  pieces: readonly RunLine[][],
  reading: readonly boolean[],
  above: readonly string[],
  below: string | undefined,
): number {
  let cost = 0;
  const ctx = above.slice();
  pieces.forEach((pc, p) => {
    const asWritten = reading[p]!;
    pc.forEach((r, k) => {
      const t = asWritten ? r.w : r.s;
      // The piece's first line against what is above it (the lines within a piece agree by construction).
      if (k === 0 && !fits(ctx, t)) cost++;
      if (!asWritten && r.crushed) cost += CRUSH_COST;
      if (r.same !== undefined && r.same !== asWritten) cost++;
      ctx.push(t);
    });
  });
  if (below !== undefined && run.length > 0 && !fits(ctx, below)) cost++;
  return cost;
}

/** The first non-blank file line at or after `end`. */
function fileBelow(fileLines: readonly FileLine[], end: number): string | undefined {
  for (let q = end; q < fileLines.length && q < end + 50; q++) if (fileLines[q]!.text.trim() !== '') return fileLines[q]!.text;
  return undefined;
}

/**
 * `next` can follow the result's lines `above` (non-blank, nearest last): at the same depth; deeper
 * only under a line that opens a block or a continuation, or as one; shallower only at the depth
 * of an enclosing line above (the first line above that is not deeper has the same depth).
 */
function fits(above: readonly string[], next: string): boolean {
  const prev = above[above.length - 1];
  if (prev === undefined) return true;
  const wp = width(indentOf(prev));
  const wn = width(indentOf(next));
  const t = next.trimStart();
  if (wn === wp) {
    // Not beside a line that opens a bracket (its body sits deeper), except its closer; and a
    // closer not beside a line that opens nothing (the block's body before it sits deeper).
    const closer = /^[)}\]]/.test(t);
    if (closer) return !closesBodyBeside(prev);
    return !(OPENS_BRACKET.test(prev) && netOpen(prev) > 0) && !BLOCK_HEADER.test(prev);
  }
  if (LABEL.test(next)) return true;
  if (wn > wp) {
    // A comment continues nothing: deeper than a continuation line it is out of place.
    if (CONTINUES.test(t) || (CONTINUES_AFTER.test(prev.trimStart()) && !COMMENT.test(t))) return true;
    // A comment's body under its opening line.
    if (t.startsWith('*') && wn - wp === 1) return true;
    const step = wn - wp;
    return opens(prev) && (indentOf(next) === indentOf(prev) + '\t' || step === 2 || step === 4 || step === 8);
  }
  // Shallower than a line that opens a bracket (its body sits deeper), or than a line closing a
  // brace (the block around it goes on at that line's depth until another closer).
  if (!/^[)}\]]/.test(t) && !CONTINUES.test(t)) {
    const p = prev.trimStart();
    if ((OPENS_BRACKET.test(prev) && netOpen(prev) > 0) || (p.startsWith('}') && netOpen(p) < 0)) return false;
  }
  for (let k = above.length - 2; k >= 0 && k >= above.length - SCAN; k--) {
    const w = width(indentOf(above[k]!));
    if (w <= wn) return w === wn;
  }
  return true;
}

/** The nearest line the result keeps around an added line: a context line (removed ones are gone). */
function nearestKept(variant: Variant, from: number, step: number): number | undefined {
  for (let j = from + step; j >= 0 && j < variant.lines.length; j += step) {
    const l = variant.lines[j]!;
    if (l.kind === 'context' && l.text.trim() !== '') return j;
  }
  return undefined;
}

function nearestMatched(variant: Variant, fileOf: readonly number[], from: number, step: number): number | undefined {
  for (let j = from + step; j >= 0 && j < variant.lines.length; j += step) {
    if (fileOf[j]! >= 0 && variant.lines[j]!.text.trim() !== '') return j;
  }
  return undefined;
}

/** The shift for added line `i`: the hunk's, or in a loose match the nearest kept (else matched) line's. */
function shiftOf(variant: Variant, cand: Candidate, i: number, fileOf: readonly number[], fileLines: readonly FileLine[]): IndentShift {
  if (cand.shift !== 'relative') return cand.shift;
  const j = nearestKept(variant, i, -1) ?? nearestKept(variant, i, 1) ?? nearestMatched(variant, fileOf, i, -1) ?? nearestMatched(variant, fileOf, i, 1);
  if (j === undefined) return { kind: 'none' };
  return shiftFromPair(variant.lines[j]!.text, fileLines[fileOf[j]!]!.text);
}

/** Similarity above which an added line is the removed one rewritten. */
const SAME_STATEMENT = 0.5;

/**
 * Ends a line the next one may sit deeper than: a block opener, a list separator, an operator.
 * Generous on purpose: it only ever makes the shifted reading plausible, the safe default.
 */
const OPENS = /(?:[{([:,=+\-*/%&|^<>?\\`]|\bdo(?:\s*\|[^|]*\|)?|\bthen|\belse|\btry|\bfinally)\s*$/;
/** `if (x)` without a brace, and list items, whose next lines sit deeper too. */
const OPENS_LINE = /^\s*(?:(?:if|for|while|else if|elif|switch|catch|with)\b.*\)\s*$|[-*+]\s|\d+[.)]\s)/;
/**
 * Starts a closer or a continuation, which may sit at another depth than its neighbours: `}`,
 * `)`, `]`, `</tag>`, `.method()`, an operator, `else`/`end`... Not a comment (`// x`, `/* x`,
 * ` * x`) nor an opening tag.
 */
const CONTINUES = /^(?:[.?:&|+\-)}\]>`]|<\/|\*(?![\s*/])|\/(?![/*])|(?:and|or|else|elif|except|finally|catch|end|fi|done)\b)/;

/** A line comment or the start of a block comment. */
const COMMENT = /^(?:\/\/|\/\*|#)/;

/** A line that ends a closing or self-closing tag (`</b>`, `<br/>`) opens nothing. */
const CLOSES_TAG = /(?:<\/[\w.:-]+\s*|\/)>\s*$/;
/** A closer beside `prev` would close a block whose body is `prev` itself: prev is neither an opener nor a closer. */
function closesBodyBeside(prev: string): boolean {
  return !opens(prev) && !/^[)}\]]/.test(prev.trimStart());
}

/** Opening brackets minus closing ones on a line (strings and comments not told apart: a hint only). */
function netOpen(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === '(' || c === '[' || c === '{') n++;
    else if (c === ')' || c === ']' || c === '}') n--;
  }
  return n;
}

/** A block header of an indentation language (`def f():`, `if x:`), whose body sits deeper. */
const BLOCK_HEADER = /^\s*(?:(?:async\s+)?def|class|if|elif|else|for|while|try|except|finally|with)\b.*:\s*$/;

/** Ends with an opening bracket. */
const OPENS_BRACKET = /[{([]\s*$/;
const opens = (line: string) => (OPENS.test(line) && !CLOSES_TAG.test(line)) || OPENS_LINE.test(line);
/** After a line that starts like this (an operator, a method call), the next one may sit deeper; not after a closer. */
const CONTINUES_AFTER = /^(?:[.?:&|+\-`]|\*(?![\s*/])|\/(?![/*])|(?:and|or)\b)/;

/**
 * A line that rewrites a removed line (the k-th added line after k removed ones, and alike) says its frame
 * through that line: indented like the removed line in the file and unlike it in the patch, it
 * was written for the file (true); like it in the patch, for the patch (false). Undefined when
 * there is no such line, or when the shifted line sits one level under a block opener.
 */
function writtenLikeReplaced(
  variant: Variant,
  i: number,
  fileOf: readonly number[],
  fileLines: readonly FileLine[],
  shifted: string,
  above: string | undefined,
): boolean | undefined {
  const lines = variant.lines;
  let k = 0;
  let j = i - 1;
  while (j >= 0 && lines[j]!.kind === 'add') {
    j--;
    k++;
  }
  const removed: number[] = [];
  while (j >= 0 && lines[j]!.kind === 'remove') removed.unshift(j--);
  // Paired one to one: an added line past the removed ones is not a rewrite of the last of them.
  const r = removed[k];
  if (r === undefined || lines[r]!.text.trim() === '') return undefined;
  // Only the same statement rewritten keeps its depth; another line may sit anywhere.
  if (similarity(lines[r]!.text, lines[i]!.text) < SAME_STATEMENT) return undefined;
  if (above !== undefined && opens(above) && width(indentOf(shifted)) > width(indentOf(above))) return undefined;
  const mine = indentOf(lines[i]!.text);
  const inFile = indentOf(fileLines[fileOf[r]!]!.text) === mine;
  const inPatch = indentOf(lines[r]!.text) === mine;
  return inFile === inPatch ? undefined : inFile;
}

/** `case x:`, `default:`, `public:` and the like sit one step out from their neighbours. */
const LABEL = /^\s*(?:case\b.*|default|public|private|protected|[A-Za-z_]\w*)\s*:\s*$/;

function width(indent: string): number {
  let w = 0;
  for (const c of indent) w += c === '\t' ? 4 : 1;
  return w;
}
