import type { FilePatch, Hunk } from '../types';
import { fail } from './errors';
import { replaceToHunkLines } from './hunk-lines';
import { at, fenceInfo, isBlank, isFence, quote, SkippedLines } from './lines';
import { normalisePath, pathFromFenceInfo, pathFromLine, pathMentionedIn } from './paths';
import type { ClaimedRanges, FormatParse } from './result';

/**
 * SEARCH/REPLACE blocks (aider: `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`; Cline:
 * `------- SEARCH` / `=======` / `+++++++ REPLACE`), each preceded by its file path (a plain,
 * backticked or bold line, a fence's info, or the first line inside the fence) or using the
 * path of the block before. Text between the markers is taken literally, fences included.
 */

const SEARCH = /^(?:<{5,9}|-{5,9}) ?SEARCH\s*$/i;
const REPLACE = /^(?:>{5,9}|\+{5,9}) ?REPLACE\s*$/i;
const DIVIDER = /^={7}\s*$/;
const LOOSE_DIVIDER = /^={5,9}\s*$/;

export function isSearchMarker(s: string): boolean {
  return (s[0] === '<' || s[0] === '-') && SEARCH.test(s);
}

export function isReplaceMarker(s: string): boolean {
  return (s[0] === '>' || s[0] === '+') && REPLACE.test(s);
}

/** A block's own path: looks back from its SEARCH marker, no further than the previous block. */
function pathBefore(lines: readonly string[], marker: number, floor: number): { path: string; line: number } | undefined {
  let k = marker - 1;
  while (k >= floor && isBlank(lines[k]!)) k--;
  if (k < floor) return undefined;
  if (isFence(lines[k]!)) {
    const fromInfo = pathFromFenceInfo(fenceInfo(lines[k]!));
    if (fromInfo !== undefined) return { path: fromInfo, line: k + 1 };
    k--;
    while (k >= floor && isBlank(lines[k]!)) k--;
    if (k < floor) return undefined;
  }
  const found = pathFromLine(lines[k]!) ?? pathMentionedIn(lines[k]!);
  return found === undefined ? undefined : { path: found, line: k + 1 };
}

interface Block {
  path: string;
  pathLine: number;
  markerLine: number;
  search: string[];
  replace: string[];
}

export function parseSearchReplace(lines: readonly string[]): FormatParse & { claimed: ClaimedRanges } {
  const warnings: string[] = [];
  const blocks: Block[] = [];
  const claimed: ClaimedRanges = [];
  let floor = 0;
  let lastPath: string | undefined;
  const skipped = new SkippedLines();

  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!;
    if (isReplaceMarker(s)) fail(`${quote(s)} without a \`<<<<<<< SEARCH\` line before it`, i + 1);
    if (!isSearchMarker(s)) {
      skipped.note(s);
      continue;
    }
    const markerLine = i + 1;
    const own = pathBefore(lines, i, floor);
    if (own && !isFence(lines[own.line - 1]!)) skipped.prose--;
    const path = own ? normalisePath(own.path) : lastPath;
    if (path === undefined || path === '') {
      fail(
        'SEARCH/REPLACE block has no file path: put the path alone on the line before `<<<<<<< SEARCH` (or before its ``` fence)',
        markerLine,
      );
    }
    // SEARCH part: up to the divider (exactly seven `=`, or a near miss when no exact one comes).
    let j = i + 1;
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
      fail(`block started at line ${markerLine} has no \`=======\` line: expected \`=======\`, then the replacement, then \`>>>>>>> REPLACE\`; found the end of the text`, markerLine);
    }
    if (j >= lines.length || !DIVIDER.test(lines[j]!)) {
      warnings.push(at(loose + 1, `\`${lines[loose]}\` read as the \`=======\` divider`));
      j = loose;
    }
    const search = lines.slice(i + 1, j);
    let k = j + 1;
    for (; k < lines.length && !isReplaceMarker(lines[k]!); k++) {
      if (isSearchMarker(lines[k]!)) {
        fail(`block started at line ${markerLine} is not closed: expected \`>>>>>>> REPLACE\` before ${quote(lines[k])}`, k + 1);
      }
    }
    if (k >= lines.length) {
      fail(`block started at line ${markerLine} is not closed: expected \`>>>>>>> REPLACE\`, found the end of the text`, markerLine);
    }
    blocks.push({ path, pathLine: own?.line ?? markerLine, markerLine, search, replace: lines.slice(j + 1, k) });
    claimed.push([own ? own.line - 1 : i, k + 1]);
    lastPath = path;
    floor = k + 1;
    i = k;
  }
  const files = groupByFile(blocks, warnings);
  const note = skipped.warning('outside the SEARCH/REPLACE blocks');
  if (note) warnings.push(note);
  return { files, warnings, claimed };
}

/** Same-path blocks become hunks of one FilePatch, in block order. */
function groupByFile(blocks: Block[], warnings: string[]): FilePatch[] {
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
      if (!hunk.lines.some((l) => l.kind !== 'context')) {
        warnings.push(at(block.markerLine, `block for ${block.path} changes nothing (SEARCH and REPLACE are identical)`));
      }
      if (!file) {
        file = { operation: 'modify', oldPath: block.path, newPath: block.path, hunks: [], patchLine: block.pathLine };
        files.set(block.path, file);
      }
    }
    file.hunks.push(hunk);
  }
  return [...files.values()];
}
