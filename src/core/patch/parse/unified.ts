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
  return new UnifiedReader(lines, cr).read();
}

/** Reads a unified diff line by line; each `read…` method takes one kind of line and says whether it did. */
class UnifiedReader {
  private readonly files: FilePatch[] = [];
  private readonly warnings: string[] = [];
  private readonly skipped = new SkippedLines();
  private current: Section | undefined;
  /** Index after the last line that belonged to the patch (header or hunk). */
  private consumed = 0;
  private i = 0;

  constructor(
    private readonly lines: readonly string[],
    private readonly cr: ReadonlySet<number>,
  ) {}

  read(): FormatParse {
    const lines = this.lines;
    while (this.i < lines.length) {
      const s = lines[this.i]!;
      const next = lines[this.i + 1];
      if (this.readGitHeader(s)) continue;
      if (s.startsWith('diff --cc ') || s.startsWith('diff --combined ')) {
        fail('combined merge diffs (`diff --cc`) are not supported: send a plain unified diff', this.i + 1);
      }
      if (this.readFileHeader(s, next)) continue;
      if (this.readLonePlusHeader(s, next)) continue;
      if (this.readHunk(s)) continue;
      if (this.readBinary(s)) continue;
      this.skipped.note(s);
      this.i++;
    }
    this.close();
    const note = this.skipped.warning('outside the diff');
    if (note) this.warnings.push(note);
    return { files: this.files, warnings: this.warnings };
  }

  /** Marks the lines up to `i` as the patch's and moves on to `i`. */
  private consumeTo(i: number): void {
    this.i = i;
    this.consumed = i;
  }

  private open(git: boolean): Section {
    this.close();
    this.current = newSection(this.i + 1, git);
    return this.current;
  }

  private close(): void {
    const current = this.current;
    if (current) {
      if (current.hunks.length === 0) {
        const lines = this.lines;
        let k = current.headerEnd;
        while (k < lines.length && (isBlank(lines[k]!) || lines[k] === CLAIMED_LINE)) k++;
        current.foundAfterHeader = quote(lines[k]);
      }
      const file = finishSection(current, this.warnings);
      if (file && (file.oldPath === '' || file.newPath === '')) {
        fail('file header has an empty file name: expected `--- a/path` and `+++ b/path` with real paths', current.patchLine);
      }
      if (file) this.files.push(file);
    }
    this.current = undefined;
  }

  /** `diff --git a/x b/x` and the extended header lines after it. */
  private readGitHeader(s: string): boolean {
    if (!s.startsWith('diff --git ')) return false;
    const current = this.open(true);
    this.consumeTo(readGitHeader(this.lines, this.i, current));
    current.headerEnd = this.i;
    return true;
  }

  /** `--- a/x` then `+++ b/x` (joining the `diff --git` section they belong to). */
  private readFileHeader(s: string, next: string | undefined): boolean {
    if (s.startsWith('--- ') && next !== undefined && isHunkHeaderLine(next)) {
      fail(`expected \`+++ b/path\` after \`${s}\`, found ${quote(next)}`, this.i + 2);
    }
    if (!s.startsWith('--- ') || !(next?.startsWith('+++ ') ?? false)) return false;
    const current = this.current?.git && this.current.minus === undefined && this.current.hunks.length === 0 ? this.current : this.open(false);
    current.minus = headerName(s.slice(4), this.i + 1);
    current.plus = headerName(next!.slice(4), this.i + 2);
    this.consumeTo(this.i + 2);
    current.headerEnd = this.i;
    return true;
  }

  /** `+++ b/x` right before a hunk, with no `---` line. */
  private readLonePlusHeader(s: string, next: string | undefined): boolean {
    const current = this.current;
    if (!s.startsWith('+++ ') || next === undefined || !isHunkHeaderLine(next)) return false;
    if (current && current.hunks.length === 0 && current.plus === undefined) return false;
    const section = this.open(false);
    section.plus = headerName(s.slice(4), this.i + 1);
    section.minus = section.plus;
    this.warnings.push(at(this.i + 1, `\`+++\` header without a \`---\` line before it; read as a change of ${section.plus ?? '/dev/null'}`));
    this.consumeTo(this.i + 1);
    return true;
  }

  /** A hunk, in the current section or in one named by the text before it. */
  private readHunk(s: string): boolean {
    if (!isHunkHeaderLine(s)) return false;
    if (this.consumed < this.i || !this.current) this.openHintedSection();
    const current = this.current;
    if (!current) {
      fail(
        `hunk header ${quote(s)} has no file header before it: expected \`--- a/path\` and \`+++ b/path\` ` +
          '(or `diff --git a/path b/path`) first, or the path alone on the line before the hunk',
        this.i + 1,
      );
    }
    const wholeFile = current.minus === null || current.newFileMode;
    const read = readUnifiedHunk(this.lines, this.i, current.hunks.length, labelOf(current), this.warnings, wholeFile, this.cr);
    if (read.hunk.lines.length === 0) {
      this.warnings.push(at(this.i + 1, `empty hunk of ${labelOf(current)} ignored`));
    } else {
      current.hunks.push(read.hunk);
    }
    this.consumeTo(read.next);
    return true;
  }

  /** Prose or a fence since the last hunk: the model may have named another file there. */
  private openHintedSection(): void {
    const hint = pathBefore(this.lines, this.i, this.consumed);
    const current = this.current;
    const currentPath = current && (current.plus ?? current.minus ?? current.gitNames?.new);
    const samePath = currentPath != null && hint !== undefined && stripGitPrefix(normalisePath(currentPath)) === normalisePath(hint);
    if (hint === undefined || samePath) return;
    const section = this.open(false);
    section.minus = hint;
    section.plus = hint;
    section.noPrefix = true;
    section.hinted = true;
    this.warnings.push(at(this.i + 1, `hunk without \`---\`/\`+++\` header; path ${hint} taken from the text before it`));
  }

  /** `Binary files a/x and b/x differ`: its own section unless it ends a `diff --git` header. */
  private readBinary(s: string): boolean {
    if (!s.startsWith('Binary files ') || !s.endsWith(' differ')) return false;
    let current = this.current;
    if (!current || !current.git || current.hunks.length > 0 || current.binary) {
      const names = binaryNames(s);
      current = this.open(false);
      if (names) {
        current.minus = headerName(names.old, this.i + 1);
        current.plus = headerName(names.new, this.i + 1);
      }
    }
    current.binary = true;
    this.consumeTo(this.i + 1);
    return true;
  }
}

function labelOf(section: Section): string {
  const name = section.renameTo ?? section.plus ?? section.minus ?? section.gitNames?.new;
  if (name == null) return '(unnamed)';
  return section.renameTo !== undefined || section.noPrefix ? normalisePath(name) : normalisePath(stripGitPrefix(name));
}
