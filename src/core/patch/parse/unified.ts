import type { FilePatch } from '../types';
import { fail } from './errors';
import { isHunkHeaderLine } from './hunk-header';
import { at, CLAIMED_LINE, fenceInfo, isBlank, isFence, quote, SkippedLines } from './lines';
import { gitDiffNames, headerName, normalisePath, pathFromFenceInfo, pathFromLine, pathMentionedIn, readQuoted, stripGitPrefix } from './paths';
import type { FormatParse } from './result';
import { readUnifiedHunk } from './unified-hunk';
import { finishSection, newSection, type Section } from './unified-section';

/**
 * Unified diffs, git style or plain, with prose and fences anywhere between file sections and
 * hunks. One pass over the lines; each line is looked at a bounded number of times.
 */

function nameAfter(line: string, prefix: string, lineNumber: number): string {
  const rest = line.slice(prefix.length);
  return rest.startsWith('"') ? readQuoted(rest, 0, lineNumber).value : rest.trimEnd();
}

/** Skips the base85 body of a `GIT binary patch`: it never starts with `diff ` or a fence. */
function skipBinaryBody(lines: readonly string[], j: number): number {
  while (j < lines.length && !lines[j]!.startsWith('diff ') && !isFence(lines[j]!)) j++;
  return j;
}

/** Reads `diff --git` and its extended header lines; returns the index of the first other line. */
function readGitHeader(lines: readonly string[], i: number, section: Section): number {
  const names = gitDiffNames(lines[i]!.slice('diff --git '.length), i + 1);
  if (names) {
    section.gitNames = names;
    section.noPrefix = !names.old.startsWith('a/') && !names.new.startsWith('b/');
  }
  let j = i + 1;
  for (; j < lines.length; j++) {
    const s = lines[j]!;
    const n = j + 1;
    if (s.startsWith('old mode ') || s.startsWith('new mode ')) section.modeChange = true;
    else if (s.startsWith('new file mode ')) section.newFileMode = true;
    else if (s.startsWith('deleted file mode ')) section.deletedFileMode = true;
    else if (s.startsWith('index ') || s.startsWith('similarity index ') || s.startsWith('dissimilarity index ')) continue;
    else if (s.startsWith('rename from ')) section.renameFrom = nameAfter(s, 'rename from ', n);
    else if (s.startsWith('rename old ')) section.renameFrom = nameAfter(s, 'rename old ', n);
    else if (s.startsWith('rename to ')) section.renameTo = nameAfter(s, 'rename to ', n);
    else if (s.startsWith('rename new ')) section.renameTo = nameAfter(s, 'rename new ', n);
    else if (s.startsWith('copy from ')) section.copyFrom = nameAfter(s, 'copy from ', n);
    else if (s.startsWith('copy to ')) section.copyTo = nameAfter(s, 'copy to ', n);
    else if (s.startsWith('Binary files ')) section.binary = true;
    else if (s.startsWith('GIT binary patch')) {
      section.binary = true;
      return skipBinaryBody(lines, j + 1);
    } else break;
  }
  return j;
}

/** `Binary files a/x and b/y differ` outside a git section. */
function binaryNames(s: string): { old: string; new: string } | undefined {
  const body = s.slice('Binary files '.length, s.length - ' differ'.length);
  const and = body.indexOf(' and ');
  return and > 0 ? { old: body.slice(0, and), new: body.slice(and + 5) } : undefined;
}

/**
 * For a hunk with no file header: a path on the line before it, in the info of a fence before
 * it, or on the line before that fence (`src/app.py` then ```` ```diff ````). Looks back at most
 * to `floor` (the end of what was already read), so the look-back stays linear overall.
 */
function pathBefore(lines: readonly string[], i: number, floor: number): string | undefined {
  for (let k = i - 1; k >= floor; k--) {
    const s = lines[k]!;
    if (isBlank(s)) continue;
    if (s === CLAIMED_LINE) return undefined;
    if (isFence(s)) {
      const fromInfo = pathFromFenceInfo(fenceInfo(s));
      if (fromInfo !== undefined) return fromInfo;
      continue;
    }
    if (s[0] === ' ' || s[0] === '+' || s[0] === '-') return undefined;
    return pathFromLine(s) ?? pathMentionedIn(s);
  }
  return undefined;
}

export function parseUnified(lines: readonly string[], cr: ReadonlySet<number> = new Set()): FormatParse {
  const files: FilePatch[] = [];
  const warnings: string[] = [];
  const skipped = new SkippedLines();
  let current: Section | undefined;
  /** Index after the last line that belonged to the patch (header or hunk). */
  let consumed = 0;

  const close = () => {
    if (current) {
      if (current.hunks.length === 0) {
        let k = current.headerEnd;
        while (k < lines.length && (isBlank(lines[k]!) || lines[k] === CLAIMED_LINE)) k++;
        current.foundAfterHeader = quote(lines[k]);
      }
      const file = finishSection(current, warnings);
      if (file && (file.oldPath === '' || file.newPath === '')) {
        fail('file header has an empty file name: expected `--- a/path` and `+++ b/path` with real paths', current.patchLine);
      }
      if (file) files.push(file);
    }
    current = undefined;
  };
  const labelOf = (section: Section) => {
    const name = section.renameTo ?? section.plus ?? section.minus ?? section.gitNames?.new;
    if (name == null) return '(unnamed)';
    return section.renameTo !== undefined || section.noPrefix ? normalisePath(name) : normalisePath(stripGitPrefix(name));
  };

  let i = 0;
  while (i < lines.length) {
    const s = lines[i]!;
    const next = lines[i + 1];
    if (s.startsWith('diff --git ')) {
      close();
      current = newSection(i + 1, true);
      i = readGitHeader(lines, i, current);
      current.headerEnd = i;
      consumed = i;
      continue;
    }
    if (s.startsWith('diff --cc ') || s.startsWith('diff --combined ')) {
      fail('combined merge diffs (`diff --cc`) are not supported: send a plain unified diff', i + 1);
    }
    if (s.startsWith('--- ') && (next?.startsWith('+++ ') ?? false)) {
      const reuse = current?.git && current.minus === undefined && current.hunks.length === 0;
      if (!reuse) {
        close();
        current = newSection(i + 1, false);
      }
      current!.minus = headerName(s.slice(4), i + 1);
      current!.plus = headerName(next!.slice(4), i + 2);
      i += 2;
      current!.headerEnd = i;
      consumed = i;
      continue;
    }
    if (s.startsWith('--- ') && next !== undefined && isHunkHeaderLine(next)) {
      fail(`expected \`+++ b/path\` after \`${s}\`, found ${quote(next)}`, i + 2);
    }
    if (s.startsWith('+++ ') && next !== undefined && isHunkHeaderLine(next) && (!current || current.hunks.length > 0 || current.plus !== undefined)) {
      close();
      current = newSection(i + 1, false);
      current.plus = headerName(s.slice(4), i + 1);
      current.minus = current.plus;
      warnings.push(at(i + 1, `\`+++\` header without a \`---\` line before it; read as a change of ${current.plus ?? '/dev/null'}`));
      i += 1;
      consumed = i;
      continue;
    }
    if (isHunkHeaderLine(s)) {
      if (consumed < i || !current) {
        // Prose or a fence since the last hunk: the model may have named another file there.
        const hint = pathBefore(lines, i, consumed);
        const currentPath = current && (current.plus ?? current.minus ?? current.gitNames?.new);
        const samePath = currentPath != null && hint !== undefined && stripGitPrefix(normalisePath(currentPath)) === normalisePath(hint);
        if (hint !== undefined && !samePath) {
          close();
          current = newSection(i + 1, false);
          current.minus = hint;
          current.plus = hint;
          current.noPrefix = true;
          current.hinted = true;
          warnings.push(at(i + 1, `hunk without \`---\`/\`+++\` header; path ${hint} taken from the text before it`));
        }
      }
      if (!current) {
        fail(
          `hunk header ${quote(s)} has no file header before it: expected \`--- a/path\` and \`+++ b/path\` ` +
            '(or `diff --git a/path b/path`) first, or the path alone on the line before the hunk',
          i + 1,
        );
      }
      const wholeFile = current.minus === null || current.newFileMode;
      const read = readUnifiedHunk(lines, i, current.hunks.length, labelOf(current), warnings, wholeFile, cr);
      if (read.hunk.lines.length === 0) {
        warnings.push(at(i + 1, `empty hunk of ${labelOf(current)} ignored`));
      } else {
        current.hunks.push(read.hunk);
      }
      i = read.next;
      consumed = i;
      continue;
    }
    if (s.startsWith('Binary files ') && s.endsWith(' differ')) {
      if (!current || !current.git || current.hunks.length > 0 || current.binary) {
        const names = binaryNames(s);
        close();
        current = newSection(i + 1, false);
        if (names) {
          current.minus = headerName(names.old, i + 1);
          current.plus = headerName(names.new, i + 1);
        }
      }
      current.binary = true;
      i += 1;
      consumed = i;
      continue;
    }
    skipped.note(s);
    i++;
  }
  close();
  const note = skipped.warning('outside the diff');
  if (note) warnings.push(note);
  return { files, warnings };
}
