import type { Variant } from './locate';
import type { Candidate } from './match';
import type { FileLine } from './text';
import { indentOf } from './normalize';
import { reindentLine, shiftFromPair } from './reindent';

/**
 * The text an added line gets when its hunk matched at a shifted indentation. Each line is
 * re-indented by the shift its nearest matched line showed (the whole hunk's shift when it was
 * consistent), except a line the model already wrote at the file's indentation: when the line
 * as written has the indentation of a line next to it and the shifted one would sit where no
 * code sits (beside neither neighbour, not one level under a block opener, not a closer or a
 * continuation), the line as written is kept.
 */

/** The non-blank lines around an added line in the result: the one above (already written) and below. */
export interface Neighbours {
  above?: string;
  below?: string;
}

export function addedText(
  variant: Variant,
  cand: Candidate,
  i: number,
  fileOf: readonly number[],
  fileLines: readonly FileLine[],
  around: Neighbours,
): string {
  const written = variant.lines[i]!.text;
  const shifted = shiftedText(variant, cand, i, fileOf, fileLines);
  if (shifted === written || written.trim() === '') return shifted;
  return alreadyFits(shifted, written, around) ? written : shifted;
}

function shiftedText(variant: Variant, cand: Candidate, i: number, fileOf: readonly number[], fileLines: readonly FileLine[]): string {
  const text = variant.lines[i]!.text;
  if (cand.shift !== 'relative') return reindentLine(text, cand.shift);
  // Loose match: take the delta of the nearest non-blank old line, preferring the one above.
  const ref = (from: number, step: number): number => {
    for (let j = from; j >= 0 && j < variant.lines.length; j += step) {
      if (fileOf[j]! >= 0 && variant.lines[j]!.text.trim() !== '') return j;
    }
    return -1;
  };
  let j = ref(i - 1, -1);
  if (j < 0) j = ref(i + 1, 1);
  if (j < 0) return text;
  return reindentLine(text, shiftFromPair(variant.lines[j]!.text, fileLines[fileOf[j]!]!.text));
}

/** Ends a line that the next one may sit deeper than: `{`, `:`, `(`, `,`, an operator, `do`, a tag. */
const OPENS = /(?:[{([:,=+\-*/%&|^<>?\\]|\bdo(?:\s*\|[^|]*\|)?|\bthen|\belse|\btry|\bfinally)\s*$/;
/** `if (x)` without a brace, and list items, whose next lines sit deeper too. */
const OPENS_LINE = /^\s*(?:(?:if|for|while|else if|elif|switch|catch|with)\b.*\)\s*$|[-*+]\s|\d+[.)]\s)/;
/** Starts a line that may sit at another depth than its neighbours: a closer or a continuation. */
const CONTINUES = /^(?:[.?:&|+\-*/)}\]<]|(?:and|or|else|elif|except|finally|catch|end|fi|done)\b)/;

function alreadyFits(shifted: string, written: string, { above, below }: Neighbours): boolean {
  const neighbours = [above, below].filter((t): t is string => t !== undefined && t.trim() !== '');
  if (!neighbours.some((t) => indentOf(t) === indentOf(written))) return false;
  return !plausible(shifted, above, neighbours);
}

/** The shifted line sits where code sits: beside a neighbour, one level under an opener, or it is a closer/continuation. */
function plausible(shifted: string, above: string | undefined, neighbours: readonly string[]): boolean {
  const indent = indentOf(shifted);
  if (neighbours.some((t) => indentOf(t) === indent)) return true;
  if (CONTINUES.test(shifted.trimStart())) return true;
  if (above === undefined || !(OPENS.test(above) || OPENS_LINE.test(above))) return false;
  const outer = indentOf(above);
  const step = width(indent) - width(outer);
  return indent === outer + '\t' || step === 2 || step === 4 || step === 8;
}

function width(indent: string): number {
  let w = 0;
  for (const c of indent) w += c === '\t' ? 4 : 1;
  return w;
}

/** The first non-blank line below added line `i` in the result: a matched line of the hunk, or the file after it. */
export function lineBelow(variant: Variant, i: number, fileOf: readonly number[], fileLines: readonly FileLine[], end: number): string | undefined {
  for (let j = i + 1; j < variant.lines.length; j++) {
    const l = variant.lines[j]!;
    if (l.kind === 'add' || l.text.trim() === '') continue;
    if (l.kind === 'context') return fileLines[fileOf[j]!]!.text;
  }
  for (let q = end; q < fileLines.length && q < end + 50; q++) if (fileLines[q]!.text.trim() !== '') return fileLines[q]!.text;
  return undefined;
}
