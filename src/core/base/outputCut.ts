/**
 * Cutting a tool's output for the model, the one rule for every tool result: whole lines only,
 * and a note that says exactly which lines were left out and how to get them (the whole output
 * kept in a file read_file may read, or the call to repeat). A model that is not told what it
 * did not see reasons about code it never read; so nothing is ever dropped without that note.
 */

export interface CutHow {
  /**
   * `head`: text read from its start (a file): the first lines, then where to continue.
   * `headTail`: output whose end matters too (a command's errors and summary): first and last lines.
   */
  shape: 'head' | 'headTail';
  /** Workspace-relative file holding the whole text (line for line), for read_file. */
  keptAt?: string;
  /** How to get what was left out when nothing keeps it ("narrow the command's output"). */
  otherwise?: string;
}

export interface CutResult {
  text: string;
  cut: boolean;
}

/** Room kept for the note itself, so a cut result stays within `maxChars`. */
const NOTE_ROOM = 400;

export function cutOutput(text: string, maxChars: number, how: CutHow): CutResult {
  if (text.length <= maxChars) return { text, cut: false };
  // A final newline ends the last line; it does not start another (read_file counts the same way).
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const budget = Math.max(200, maxChars - NOTE_ROOM);
  if (how.shape === 'head') return cutHead(lines, text.length, budget, how);
  return cutHeadTail(lines, text.length, budget, how);
}

function cutHead(lines: string[], totalChars: number, budget: number, how: CutHow): CutResult {
  const head = takeLines(lines, 0, 1, budget);
  if (head.count === 0) {
    const first = lines[0]!;
    const note = `[cut: line 1 alone is ${fmt(first.length)} characters; only its first ${fmt(budget)} are shown, then ${fmt(totalChars - budget)} more characters (${fmt(lines.length)} lines in all). ${whereWhole(how, 1)}]`;
    return { text: `${first.slice(0, budget)}\n${note}`, cut: true };
  }
  const next = head.count + 1;
  const note = `[cut: lines 1-${head.count} of ${fmt(lines.length)} shown (${fmt(head.chars)} of ${fmt(totalChars)} characters). ${whereWhole(how, next)}]`;
  return { text: `${lines.slice(0, head.count).join('\n')}\n${note}`, cut: true };
}

function cutHeadTail(lines: string[], totalChars: number, budget: number, how: CutHow): CutResult {
  const headBudget = Math.floor(budget * 0.4);
  const head = takeLines(lines, 0, 1, headBudget);
  const tail = takeLines(lines, lines.length - 1, -1, budget - head.chars, lines.length - head.count - 1);
  if (tail.count === 0 && head.count === 0) return cutInsideLines(lines, totalChars, budget, how);
  const from = head.count + 1;
  const to = lines.length - tail.count;
  const leftOut = totalChars - head.chars - tail.chars;
  const range = from === to ? `line ${from}` : `lines ${from}-${to}`;
  const note = `[... ${range} of ${fmt(lines.length)} left out here (${fmt(leftOut)} characters). ${whereWhole(how, from, to)}]`;
  const parts = [...lines.slice(0, head.count), note, ...lines.slice(to)];
  return { text: parts.join('\n'), cut: true };
}

/** No whole line fits (one huge line, minified output): the first and last characters, the cut named by line and character. */
function cutInsideLines(lines: string[], totalChars: number, budget: number, how: CutHow): CutResult {
  const text = lines.join('\n');
  const headEnd = Math.floor(budget * 0.4);
  const tailStart = text.length - (budget - headEnd);
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  const [first, last] = [lineAt(headEnd), lineAt(tailStart)];
  const where = first === last ? `inside line ${first}` : `from inside line ${first} to inside line ${last}`;
  const note = `[... characters ${fmt(headEnd + 1)}-${fmt(tailStart)} of ${fmt(totalChars)} left out here (${where}). ${whereWhole(how, first, last)}]`;
  return { text: `${text.slice(0, headEnd)}\n${note}\n${text.slice(tailStart)}`, cut: true };
}

/** Whole lines from `start` in direction `step` while they fit in `budget` characters (newlines counted). */
function takeLines(lines: string[], start: number, step: 1 | -1, budget: number, max = lines.length): { count: number; chars: number } {
  let count = 0;
  let chars = 0;
  for (let i = start; i >= 0 && i < lines.length && count < max; i += step) {
    const size = lines[i]!.length + 1;
    if (chars + size > budget) break;
    chars += size;
    count++;
  }
  return { count, chars };
}

function whereWhole(how: CutHow, from: number, to?: number): string {
  const range = to !== undefined ? `start_line=${from} end_line=${to}` : `start_line=${from}`;
  if (how.keptAt)
    return `The whole output is kept in ${how.keptAt}: call read_file with path "${how.keptAt}" and ${range} to read ${to !== undefined ? 'them' : 'on'}.`;
  return how.otherwise ?? 'The rest is not kept: repeat the call with a narrower request to see it.';
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
