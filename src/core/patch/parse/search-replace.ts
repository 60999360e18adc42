import type { FilePatch, Hunk, HunkLine } from '../types';
import { fail } from './errors';
import { replaceToHunkLines } from './hunk-lines';
import { at, isBlank, isFenceLike, quote, SkippedLines } from './lines';
import { stripLineNumbers } from './line-numbers';
import { normalisePath } from './paths';
import type { ClaimedRanges, FormatParse } from './result';
import { DIVIDER, isReplaceMarker, isSearchMarker, LOOSE_DIVIDER, readRooHeader, unescapeMarker } from './search-replace-markers';
import { pathBefore } from './search-replace-path';

export { isReplaceMarker, isSearchMarker } from './search-replace-markers';

/**
 * SEARCH/REPLACE blocks (aider, Cline and Roo Code markers, see search-replace-markers.ts), each
 * preceded by its file path (see search-replace-path.ts) or using the path of the block before.
 * Text between the markers is taken literally, fences included; a marker line is never content
 * unless escaped with a backslash.
 */

interface Block {
  path: string;
  pathLine: number;
  markerLine: number;
  search: string[];
  replace: string[];
  /** Where the block starts in the file, from Roo's `:start_line:` or numbered lines. */
  hint?: number;
}

interface ReadBlock {
  search: string[];
  replace: string[];
  hint?: number;
  /** Index of the block's last line (its REPLACE marker, or its last text line when cut off). */
  last: number;
}

export function parseSearchReplace(lines: readonly string[], cr: ReadonlySet<number> = new Set()): FormatParse & { claimed: ClaimedRanges } {
  const warnings: string[] = [];
  const blocks: Block[] = [];
  const claimed: ClaimedRanges = [];
  let floor = 0;
  let lastPath: string | undefined;
  const skipped = new SkippedLines();
  // A CRLF ending in a patch that mixes endings belongs to the text (see splitPatchText).
  const raw = (x: number) => (cr.has(x) ? `${lines[x]}\r` : lines[x]!);

  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!;
    if (isReplaceMarker(s)) fail(`${quote(s)} without a \`<<<<<<< SEARCH\` line before it`, i + 1);
    if (!isSearchMarker(s)) {
      skipped.note(s);
      continue;
    }
    const markerLine = i + 1;
    const own = pathBefore(lines, i, floor);
    if (own.line !== undefined && !isFenceLike(lines[own.line - 1]!)) skipped.prose--;
    const path = own.path !== undefined ? normalisePath(own.path) : lastPath;
    if (path === undefined || path === '') {
      fail('SEARCH/REPLACE block has no file path: put the path alone on the line before `<<<<<<< SEARCH` (or before its ``` fence)', markerLine);
    }
    const block = readBlock(lines, i, own.fenced, raw, path, warnings);
    blocks.push({
      path,
      pathLine: own.line ?? markerLine,
      markerLine,
      search: block.search,
      replace: block.replace,
      ...(block.hint ? { hint: block.hint } : {}),
    });
    claimed.push([own.line !== undefined ? own.line - 1 : i, block.last + 1]);
    lastPath = path;
    floor = block.last + 1;
    i = block.last;
  }
  const files = groupByFile(blocks, warnings, cr.size > 0);
  const note = skipped.warning('outside the SEARCH/REPLACE blocks');
  if (note) warnings.push(note);
  return { files, warnings, claimed };
}

function readBlock(lines: readonly string[], i: number, fenced: boolean, raw: (x: number) => string, path: string, warnings: string[]): ReadBlock {
  const markerLine = i + 1;
  const roo = readRooHeader(lines, i);
  if (roo.read) warnings.push(at(markerLine, 'Roo Code block header (`:start_line:`, `-------`) read as a line hint, not as text'));
  // SEARCH part: up to the divider (exactly seven `=`, or a near miss when no exact one comes).
  let j = roo.next;
  let loose = -1;
  for (; j < lines.length; j++) {
    const t = lines[j]!;
    if (DIVIDER.test(t)) break;
    if (loose < 0 && LOOSE_DIVIDER.test(t)) loose = j;
    if (isSearchMarker(t) || isReplaceMarker(t)) {
      if (loose >= 0 && isReplaceMarker(t)) break;
      fail(`block started at line ${markerLine} has no \`=======\` line: expected \`=======\` before ${quote(t)}`, j + 1);
    }
  }
  if (j >= lines.length && loose < 0) {
    fail(
      `block started at line ${markerLine} has no \`=======\` line: expected \`=======\`, then the replacement, then \`>>>>>>> REPLACE\`; found the end of the text`,
      markerLine,
    );
  }
  if (j >= lines.length || !DIVIDER.test(lines[j]!)) {
    warnings.push(at(loose + 1, `\`${lines[loose]}\` read as the \`=======\` divider`));
    j = loose;
  }
  const searchRange = range(roo.next, j);
  let k = j + 1;
  for (; k < lines.length && !isReplaceMarker(lines[k]!); k++) {
    const t = lines[k]!;
    if (isSearchMarker(t)) {
      fail(`block started at line ${markerLine} is not closed: expected \`>>>>>>> REPLACE\` before ${quote(t)}`, k + 1);
    }
    if (DIVIDER.test(t)) {
      fail(
        `block started at line ${markerLine} has a second \`=======\` divider (line ${j + 1} and line ${k + 1}); a block has exactly one, ` +
          'between the SEARCH and the REPLACE text. Split it into two blocks, or, if a line of seven `=` is file content, write it as `\\=======`',
        k + 1,
      );
    }
  }
  let replaceRange: number[];
  let last = k;
  if (k < lines.length) replaceRange = range(j + 1, k);
  else {
    const searchBlankTail = searchRange.length - 1 - lastNonBlank(lines, searchRange);
    replaceRange = cutOffReplacement(lines, j + 1, fenced, markerLine, searchBlankTail);
    last = replaceRange.length > 0 ? replaceRange[replaceRange.length - 1]! : j;
    warnings.push(
      at(
        markerLine,
        `the last block for ${path} has no \`>>>>>>> REPLACE\` line; its replacement was read up to the ${fenced ? 'closing fence' : 'end of the text'}`,
      ),
    );
  }
  let search = searchRange.map(raw);
  let replace = replaceRange.map(raw);
  let hint = roo.startLine;
  const numbered = stripLineNumbers(search, replace);
  if (numbered) {
    search = numbered.search;
    replace = numbered.replace;
    hint ??= numbered.firstLine;
    warnings.push(
      at(
        markerLine,
        `\`N | \` line-number prefixes removed from the block for ${path} (lines ${numbered.firstLine}-${numbered.firstLine + search.length - 1})`,
      ),
    );
  }
  return { search: search.map(unescapeMarker), replace: replace.map(unescapeMarker), ...(hint ? { hint } : {}), last };
}

/**
 * The replacement of a last block whose `>>>>>>> REPLACE` was cut off: up to the fence that closes
 * the block, or to the end of the text. Refused when the end is not certain: a fence inside an
 * unfenced block, or a closing paragraph that reads as prose rather than file text.
 */
function cutOffReplacement(lines: readonly string[], from: number, fenced: boolean, markerLine: number, searchBlankTail: number): number[] {
  let to = lines.length;
  for (let q = from; q < lines.length; q++) {
    if (!isFenceLike(lines[q]!)) continue;
    if (!fenced) {
      fail(
        `block started at line ${markerLine} is not closed: expected \`>>>>>>> REPLACE\`, found the end of the text; ` +
          `the fence at line ${q + 1} may or may not end the replacement, so add the \`>>>>>>> REPLACE\` line`,
        markerLine,
      );
    }
    to = q;
    break;
  }
  // Blank lines before the end: text when SEARCH ends with exactly as many (unchanged context),
  // else nobody can tell them from the message's own spacing.
  let blanks = 0;
  while (to - blanks > from && isBlank(lines[to - blanks - 1]!)) blanks++;
  if (blanks !== searchBlankTail) {
    // A final blank line and the text's own final newline look the same: only an exact tally is certain.
    if (!(fenced && to < lines.length) || blanks < searchBlankTail) {
      fail(
        `block started at line ${markerLine} is not closed: expected \`>>>>>>> REPLACE\`, found the end of the text after ${blanks} blank line(s), ` +
          'and whether they belong to the replacement cannot be told; add the `>>>>>>> REPLACE` line',
        markerLine,
      );
    }
    // Before a closing fence, spacing beyond what SEARCH ends with is the message's.
    to -= blanks - searchBlankTail;
  }
  const out = range(from, to);
  if (!fenced) {
    const lastBlank = out.reduce((acc, q) => (isBlank(lines[q]!) ? q : acc), -1);
    if (lastBlank >= 0 && out.some((q) => q > lastBlank && looksLikeProse(lines[q]!))) {
      fail(
        `block started at line ${markerLine} is not closed: expected \`>>>>>>> REPLACE\`, found the end of the text, ` +
          'and the text before it reads as prose, so where the replacement ends is not certain; add the `>>>>>>> REPLACE` line',
        markerLine,
      );
    }
  }
  return out;
}

/** A sentence ("Let me know if this works.") rather than a line of code or data. */
function looksLikeProse(line: string): boolean {
  return /^[A-Z][a-z']*(?: [A-Za-z0-9',()-]+){2,}[.!?:]$/.test(line.trim());
}

function lastNonBlank(lines: readonly string[], indexes: readonly number[]): number {
  for (let k = indexes.length - 1; k >= 0; k--) if (!isBlank(lines[indexes[k]!]!)) return k;
  return -1;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let q = from; q < to; q++) out.push(q);
  return out;
}

/** Same-path blocks become hunks of one FilePatch, in block order (applied one after another). */
function groupByFile(blocks: Block[], warnings: string[], explicitEndings: boolean): FilePatch[] {
  const files = new Map<string, FilePatch>();
  for (const block of blocks) {
    let file = files.get(block.path);
    const emptySearch = block.search.every(isBlank);
    const hunk: Hunk = { index: file?.hunks.length ?? 0, anchors: [], lines: [], patchLine: block.markerLine };
    if (emptySearch) {
      hunk.lines = block.replace.map((text) => ({ kind: 'add' as const, text }));
      if (!file) {
        file = { operation: 'create', oldPath: null, newPath: block.path, hunks: [], patchLine: block.pathLine };
        files.set(block.path, file);
      } else {
        // aider's meaning of an empty SEARCH for a file already being edited: append.
        hunk.atEndOfFile = true;
        warnings.push(at(block.markerLine, `empty SEARCH for ${block.path} after other blocks: read as appending at the end of the file`));
      }
    } else {
      hunk.lines = replaceToHunkLines(block.search, block.replace);
      hunk.looseBlankEdges = true;
      if (block.hint !== undefined) hunk.oldStart = block.hint;
      if (!hunk.lines.some((l) => l.kind !== 'context')) {
        warnings.push(at(block.markerLine, `block for ${block.path} changes nothing (SEARCH and REPLACE are identical)`));
      }
      if (!file) {
        file = { operation: 'modify', oldPath: block.path, newPath: block.path, hunks: [], patchLine: block.pathLine };
        files.set(block.path, file);
      }
    }
    if (explicitEndings) hunk.lines = hunk.lines.map(withEnding);
    file.hunks.push(hunk);
  }
  return [...files.values()];
}

/** Block text keeps a CRLF's `\r` until here (it decides what is common to both sides); then it is the line's ending. */
function withEnding(line: HunkLine): HunkLine {
  return line.text.endsWith('\r') ? { ...line, text: line.text.slice(0, -1), eol: '\r\n' } : { ...line, eol: '\n' };
}
