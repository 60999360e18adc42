import type { Hunk, HunkLine } from '../types';
import { fail } from './errors';
import { parseHunkHeader } from './hunk-header';
import { countSides, dropProseTail, dropTrailingEmpty, keepCrAsContent } from './hunk-lines';
import { at, eolAt, isFence } from './lines';
import { headerName, normalisePath, stripGitPrefix } from './paths';

/**
 * One unified-diff hunk body, read by line prefixes until the next `@@`, file header, fence or
 * the end. The header counts are used only where the body cannot decide: to stop before prose
 * or blank lines that follow a complete hunk, and to read an ambiguous `--- x` line.
 */

/** The name a `---`/`+++` line gives, comparable across the two lines; undefined if unreadable. */
function comparableName(rest: string): string | null | undefined {
  try {
    const name = headerName(rest, 0);
    return name === null ? null : normalisePath(stripGitPrefix(name));
  } catch {
    return undefined;
  }
}

/**
 * `--- x` followed by the matching `+++ x` (or /dev/null on one side) and an `@@` line: a file
 * header, even in the middle of a hunk. Otherwise `--- x` is a removed line `-- x`.
 */
function isFileHeaderAt(lines: readonly string[], j: number): boolean {
  const plus = lines[j + 1];
  if (!lines[j]!.startsWith('--- ') || !plus?.startsWith('+++ ') || !(lines[j + 2]?.startsWith('@@') ?? false)) return false;
  const oldName = comparableName(lines[j]!.slice(4));
  const newName = comparableName(plus.slice(4));
  if (oldName === undefined || newName === undefined) return false;
  return oldName === null || newName === null || oldName === newName;
}

/** Lines that end a hunk body whatever the counts say. */
function endsHunk(lines: readonly string[], j: number): boolean {
  const s = lines[j]!;
  if (s.startsWith('@@') || s.startsWith('diff ') || isFence(s)) return true;
  if (s.startsWith('Index: ') && (lines[j + 1]?.startsWith('====') ?? false)) return true;
  return s.startsWith('--- ') && isFileHeaderAt(lines, j);
}

function isBodyLine(s: string): boolean {
  const c = s[0];
  return c === ' ' || c === '+' || c === '-' || s.startsWith('\\ ') || s === '\\';
}

/**
 * After the header's counts are met: do more prefixed body lines follow before the hunk would
 * end anyway? If not, what follows (blank lines, prose) is not part of the hunk.
 */
function bodyContinues(lines: readonly string[], j: number): boolean {
  for (let k = j; k < lines.length; k++) {
    const s = lines[k]!;
    if (endsHunk(lines, k) || s.startsWith('--- ')) return false;
    if (isBodyLine(s)) return true;
  }
  return false;
}

export interface ReadHunk {
  hunk: Hunk;
  /** Index of the first line after the hunk. */
  next: number;
}

export function readUnifiedHunk(
  lines: readonly string[],
  start: number,
  index: number,
  label: string,
  warnings: string[],
  /** The hunk is a new file's whole content: lines without a prefix may be content. */
  wholeFile = false,
  /** Lines that ended in CRLF in a patch that mixes endings (see splitPatchText). */
  cr: ReadonlySet<number> = new Set(),
): ReadHunk {
  const headerLine = start + 1;
  const header = parseHunkHeader(lines[start]!);
  if (header.combined) {
    fail('combined merge diff header `@@@` is not supported: send a plain unified diff against one parent', headerLine);
  }
  if (header.bare) {
    warnings.push(at(headerLine, `hunk ${index} of ${label} has no line numbers (\`${lines[start]}\`); located by its content`));
  } else if (header.unclosed) {
    warnings.push(at(headerLine, `hunk header of ${label} has no closing \`@@\``));
  }
  const body = readBody(lines, start + 1, header, warnings, cr);
  tidyBody(body, header, `hunk ${index} of ${label}`, headerLine, warnings, wholeFile);

  const hunk: Hunk = { index, anchors: header.anchor === '' ? [] : [header.anchor], lines: body.lines, patchLine: headerLine };
  if (header.oldStart !== undefined) {
    hunk.oldStart = header.oldStart;
    hunk.oldCount = header.oldCount;
  }
  if (header.newStart !== undefined) {
    hunk.newStart = header.newStart;
    hunk.newCount = header.newCount;
  }
  if (body.oldNoNewline) hunk.oldNoNewlineAtEnd = true;
  if (body.newNoNewline) hunk.newNoNewlineAtEnd = true;
  // Content after a hunk is unchanged, so a missing final newline on either side puts the
  // whole hunk at the end of the file.
  if (body.oldNoNewline || body.newNoNewline) hunk.atEndOfFile = true;
  return { hunk, next: body.next };
}

type HunkHeader = ReturnType<typeof parseHunkHeader>;

/** A hunk body as read, before the prose after it is dropped. */
interface Body {
  lines: HunkLine[];
  /** Per line: it was an empty line in the patch (no prefix at all). */
  emptyInSource: boolean[];
  /** 1-based patch line of each line. */
  sourceLine: number[];
  oldNoNewline: boolean;
  newNoNewline: boolean;
  /** Index of the first line after the body. */
  next: number;
}

/** The lines from `first` on, by their prefixes, until the hunk ends (see endsHunk and the counts). */
function readBody(lines: readonly string[], first: number, header: HunkHeader, warnings: string[], cr: ReadonlySet<number>): Body {
  const hasCounts = header.oldCount !== undefined && header.newCount !== undefined;
  const body: Body = { lines: [], emptyInSource: [], sourceLine: [], oldNoNewline: false, newNoNewline: false, next: first };
  let oldSide = 0;
  let newSide = 0;
  let j = first;
  let lookedPastCounts = false;

  for (; j < lines.length; j++) {
    if (endsHunk(lines, j)) break;
    const s = lines[j]!;
    const complete = hasCounts && oldSide === header.oldCount && newSide === header.newCount;
    const isMarker = s.startsWith('\\ ') || s === '\\';
    if (complete && !isMarker) {
      if (s.startsWith('--- ')) break;
      if (!lookedPastCounts) {
        lookedPastCounts = true;
        if (!isBodyLine(s) && !bodyContinues(lines, j)) break;
      }
    }
    if (isMarker) {
      readNoNewlineMarker(body, s, j, warnings);
      continue;
    }
    const line = bodyLine(s);
    const eol = eolAt(cr, j);
    if (eol) line.eol = eol;
    body.lines.push(line);
    body.emptyInSource.push(s[0] === undefined);
    body.sourceLine.push(j + 1);
    if (line.kind !== 'add') oldSide++;
    if (line.kind !== 'remove') newSide++;
  }
  body.next = j;
  return body;
}

/** `\ No newline at end of file`: the line before it ends its side(s) without a newline. */
function readNoNewlineMarker(body: Body, s: string, j: number, warnings: string[]): void {
  const previous = body.lines[body.lines.length - 1];
  if (!previous) {
    warnings.push(at(j + 1, `\`${s}\` before any hunk line ignored`));
    return;
  }
  if (previous.kind !== 'add') body.oldNoNewline = true;
  if (previous.kind !== 'remove') body.newNoNewline = true;
  keepCrAsContent(previous);
}

/** One body line by its prefix; an empty line is empty context, a line without a prefix context. */
function bodyLine(s: string): HunkLine {
  const c = s[0];
  if (c === undefined) return { kind: 'context', text: '' };
  if (c === ' ') return { kind: 'context', text: s.slice(1) };
  if (c === '+') return { kind: 'add', text: s.slice(1) };
  if (c === '-') return { kind: 'remove', text: s.slice(1) };
  return { kind: 'context', text: s, unprefixed: true };
}

/** Drops prose and trailing empty lines after the body, and warns of what the body and header disagree on. */
function tidyBody(body: Body, header: HunkHeader, what: string, headerLine: number, warnings: string[], wholeFile: boolean): void {
  const hasCounts = header.oldCount !== undefined && header.newCount !== undefined;
  const countsMet = () => {
    const sides = countSides(body.lines);
    return sides.old === header.oldCount && sides.new === header.newCount;
  };
  const prose = dropProseTail(body.lines, body.emptyInSource, body.sourceLine, wholeFile);
  if (prose !== undefined) {
    warnings.push(at(prose, `text after a blank line at the end of ${what} read as prose, not part of the hunk`));
  }
  if (!(hasCounts && countsMet())) dropTrailingEmpty(body.lines, body.emptyInSource);
  const unprefixed = body.sourceLine.filter((_, i) => i < body.lines.length && body.lines[i]!.unprefixed);
  if (unprefixed.length > 0) {
    const shown = unprefixed.slice(0, 5).join(', ') + (unprefixed.length > 5 ? ', ...' : '');
    warnings.push(at(headerLine, `${what}: ${unprefixed.length} line(s) without a ' ', '+' or '-' prefix read as context (lines ${shown})`));
  }
  if (hasCounts && !countsMet()) {
    const sides = countSides(body.lines);
    warnings.push(
      at(
        headerLine,
        `${what}: header says -${header.oldStart},${header.oldCount} +${header.newStart},${header.newCount} ` +
          `but the body has ${sides.old} old and ${sides.new} new line(s); the body was used`,
      ),
    );
  }
}
