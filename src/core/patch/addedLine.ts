import type { Variant } from './locate';
import type { Candidate } from './match';
import type { FileLine } from './text';
import { indentOf, similarity } from './normalize';


import { reindentLine, shiftFromPair } from './reindent';

/**
 * The text of each added line of a hunk matched at a shifted indentation. Line by line: a hunk
 * whose old side shifted consistently moves its added lines by that shift; a loosely matched
 * one (context shifted unevenly) moves each by the shift of the nearest line the result keeps
 * (a context line, not a removed one). A line the model already wrote at the file's indentation
 * stays as written: when, as written, it sits where code sits next to its neighbours in the
 * result and the shifted line would not (deeper or shallower than both, with no block opener,
 * closer or continuation to explain it).
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
  let keptWritten = 0;
  let couldBeWritten = 0;
  // The result's last non-blank line so far: the file above the block, then kept and added lines.
  let above: string | undefined;
  for (let q = start - 1; q >= 0 && q >= start - 50 && above === undefined; q--) if (fileLines[q]!.text.trim() !== '') above = fileLines[q]!.text;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.kind === 'remove') continue;
    if (l.kind === 'context') {
      const t = fileLines[fileOf[i]!]!.text;
      if (t.trim() !== '') above = t;
      continue;
    }
    const shifted = shiftedText(variant, cand, i, fileOf, fileLines);
    const kept = keptBelow(variant, i, fileOf, fileLines, end);
    const next = lineBelow(variant, cand, i, fileOf, fileLines, end);
    const asWritten =
      shifted !== l.text && l.text.trim() !== '' && (writtenLikeReplaced(variant, i, fileOf, fileLines, shifted, above) ?? alreadyFits(shifted, l.text, above, kept, next));
    const text = asWritten ? l.text : shifted;
    if (asWritten) keptWritten++;
    else if (shifted !== l.text && l.text.trim() !== '' && plausible(l.text, above, next, [above, kept].filter((t): t is string => !!t && t.trim() !== ''))) couldBeWritten++;
    texts.set(i, text);
    if (text.trim() !== '') above = text;
  }
  // Once a line shows the model mixed the two indentations, a line that fits either way cannot be told.
  if (keptWritten > 0 && couldBeWritten > 0) {
    return {
      kind: 'ambiguous',
      reason:
        "its context is indented differently from the file and its added lines mix the file's indentation and the context's, " +
        "so some of them cannot be placed for certain; send the hunk with the file's own indentation",
    };
  }
  return { kind: 'texts', texts };
}

export type IndentPlan = { kind: 'texts'; texts: Map<number, string> } | { kind: 'ambiguous'; reason: string };

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

function shiftedText(variant: Variant, cand: Candidate, i: number, fileOf: readonly number[], fileLines: readonly FileLine[]): string {
  const text = variant.lines[i]!.text;
  if (cand.shift !== 'relative') return reindentLine(text, cand.shift);
  const j = nearestKept(variant, i, -1) ?? nearestKept(variant, i, 1) ?? nearestMatched(variant, fileOf, i, -1) ?? nearestMatched(variant, fileOf, i, 1);
  if (j === undefined) return text;
  return reindentLine(text, shiftFromPair(variant.lines[j]!.text, fileLines[fileOf[j]!]!.text));
}

/** The first non-blank kept line below added line `i`: a context line of the hunk, or the file after it. */
function keptBelow(variant: Variant, i: number, fileOf: readonly number[], fileLines: readonly FileLine[], end: number): string | undefined {
  const j = nearestKept(variant, i, 1);
  if (j !== undefined) return fileLines[fileOf[j]!]!.text;
  for (let q = end; q < fileLines.length && q < end + 50; q++) if (fileLines[q]!.text.trim() !== '') return fileLines[q]!.text;
  return undefined;
}

/**
 * The first non-blank line below added line `i` in the result: the next added line (as shifted),
 * a kept line of the hunk, or the file after it.
 */
function lineBelow(variant: Variant, cand: Candidate, i: number, fileOf: readonly number[], fileLines: readonly FileLine[], end: number): string | undefined {
  for (let j = i + 1; j < variant.lines.length; j++) {
    const l = variant.lines[j]!;
    if (l.kind === 'remove' || l.text.trim() === '') continue;
    return l.kind === 'add' ? shiftedText(variant, cand, j, fileOf, fileLines) : fileLines[fileOf[j]!]!.text;
  }
  for (let q = end; q < fileLines.length && q < end + 50; q++) if (fileLines[q]!.text.trim() !== '') return fileLines[q]!.text;
  return undefined;
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
/** Starts a line that may sit at another depth than its neighbours: a closer or a continuation. */
const CONTINUES = /^(?:[.?:&|+\-*/)}\]<>`]|(?:and|or|else|elif|except|finally|catch|end|fi|done)\b)/;

/** A closer or a continuation for certain: comment lines (`* text`, `// text`) are not. */
const STRICT_CONTINUES = /^(?:[.?:&|+\-)}\]<>`]|\*(?![\s*/])|\/(?![/*])|(?:and|or|else|elif|except|finally|catch|end|fi|done)\b)/;

const opens = (line: string) => OPENS.test(line) || OPENS_LINE.test(line);

/**
 * A line that rewrites a removed line (the k-th added line after k removed ones, and alike) says its frame
 * through that line: indented like the removed line in the file and unlike it in the patch, it
 * was written for the file (true); like it in the patch, for the patch (false). Undefined when
 * there is no such line, or when the shifted line sits one level under a block opener.
 */
function writtenLikeReplaced(variant: Variant, i: number, fileOf: readonly number[], fileLines: readonly FileLine[], shifted: string, above: string | undefined): boolean | undefined {
  const lines = variant.lines;
  let k = 0;
  let j = i - 1;
  while (j >= 0 && lines[j]!.kind === 'add') {
    j--;
    k++;
  }
  const removed: number[] = [];
  while (j >= 0 && lines[j]!.kind === 'remove') removed.unshift(j--);
  const r = removed[Math.min(k, removed.length - 1)];
  if (r === undefined || lines[r]!.text.trim() === '' || STRICT_CONTINUES.test(lines[i]!.text.trimStart())) return undefined;
  // Only the same statement rewritten keeps its depth; another line may sit anywhere.
  if (similarity(lines[r]!.text, lines[i]!.text) < SAME_STATEMENT) return undefined;
  if (above !== undefined && opens(above) && width(indentOf(shifted)) > width(indentOf(above))) return undefined;
  const mine = indentOf(lines[i]!.text);
  const inFile = indentOf(fileLines[fileOf[r]!]!.text) === mine;
  const inPatch = indentOf(lines[r]!.text) === mine;
  return inFile === inPatch ? undefined : inFile;
}

/** `kept`: the next kept line below; `next`: the next line of the result (an added one taken as shifted). */
function alreadyFits(shifted: string, written: string, above: string | undefined, kept: string | undefined, next: string | undefined): boolean {
  const neighbours = [above, kept].filter((t): t is string => t !== undefined && t.trim() !== '');
  if (!neighbours.some((t) => indentOf(t) === indentOf(written))) return false;
  return !plausible(shifted, above, next, neighbours);
}

/**
 * The shifted line sits where code sits. Out of place only: deeper than the line above with
 * nothing there to open a block or continue an expression (or one step too far under an opener),
 * or shallower than both neighbours without being a closer, a label or a block opener over its body.
 */
function plausible(shifted: string, above: string | undefined, below: string | undefined, neighbours: readonly string[]): boolean {
  const indent = indentOf(shifted);
  const w = width(indent);
  if (neighbours.some((t) => indentOf(t) === indent)) return true;
  if (CONTINUES.test(shifted.trimStart()) || LABEL.test(shifted)) return true;
  if (opens(shifted) && below !== undefined && width(indentOf(below)) > w) return true;
  if (above === undefined) return true;
  const outer = indentOf(above);
  if (w > width(outer)) {
    if (CONTINUES.test(above.trimStart())) return true;
    const step = w - width(outer);
    return opens(above) && (indent === outer + '\t' || step === 2 || step === 4 || step === 8);
  }
  return below === undefined || w >= width(indentOf(below));
}

/** `case x:`, `default:`, `public:` and the like sit one step out from their neighbours. */
const LABEL = /^\s*(?:case\b.*|default|public|private|protected|[A-Za-z_]\w*)\s*:\s*$/;

function width(indent: string): number {
  let w = 0;
  for (const c of indent) w += c === '\t' ? 4 : 1;
  return w;
}
