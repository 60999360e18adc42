import type { FilePatch, Hunk, HunkLine } from '../types';
import { fail } from './errors';
import { parseHunkHeader } from './hunk-header';
import { changesSomething, dropProseTail, dropTrailingEmpty, keepCrAsContent } from './hunk-lines';
import { at, eolAt, isBlank, isFence, quote, SkippedLines } from './lines';
import { normalisePath } from './paths';
import type { ClaimedRanges, FormatParse } from './result';

/**
 * The apply_patch envelope (OpenAI Codex format): `*** Begin Patch`, `*** Update File:` with
 * optional `*** Move to:`, `*** Add File:`, `*** Delete File:`, `@@ anchor` lines, `*** End of File`,
 * `*** End Patch`. A missing Begin or End is tolerated when the file markers are clear.
 */

type MarkerKind = 'begin' | 'end' | 'update' | 'add' | 'delete' | 'move' | 'eof';

const MARKERS: ReadonlyArray<[string, MarkerKind, boolean]> = [
  ['*** Begin Patch', 'begin', false],
  ['*** End Patch', 'end', false],
  ['*** Update File:', 'update', true],
  ['*** Add File:', 'add', true],
  ['*** Delete File:', 'delete', true],
  ['*** Move to:', 'move', true],
  ['*** End of File', 'eof', false],
];

const MARKER_LIST = MARKERS.map(([text, , hasArg]) => (hasArg ? `\`${text} path\`` : `\`${text}\``)).join(', ');

/** Up to this much indentation before a marker is tolerated (models indent the envelope in lists). */
const MAX_MARKER_INDENT = 8;

function readMarker(s: string): { kind: MarkerKind; arg: string } | 'unknown' | undefined {
  if (!s.startsWith('***')) {
    // An indented line is a marker only when it is a known one: ` *** note` in a hunk stays text.
    const indent = s.length - s.trimStart().length;
    if (indent === 0 || indent > MAX_MARKER_INDENT || !/^[ \t]+\*\*\* /.test(s)) return undefined;
    const m = readMarker(s.trimStart());
    return m === 'unknown' ? undefined : m;
  }
  const t = s.trimEnd();
  for (const [text, kind, hasArg] of MARKERS) {
    if (t.length >= text.length && t.slice(0, text.length).toLowerCase() === text.toLowerCase()) {
      const arg = t.slice(text.length).trim();
      if (hasArg || arg === '') return { kind, arg };
    }
  }
  // `*** Something` reads as an attempted marker; `***` alone or `****` is left as text.
  return /^\*\*\* [A-Za-z]/.test(t) ? 'unknown' : undefined;
}

/** Detection: does this line open or continue an apply_patch envelope? */
export function isApplyPatchMarker(s: string): boolean {
  const m = readMarker(s);
  return m !== undefined && m !== 'unknown' && (m.kind === 'begin' || m.kind === 'update' || m.kind === 'add' || m.kind === 'delete');
}

function markerPath(arg: string, what: string, lineNumber: number): string {
  let p = arg;
  if (p.length > 1 && ((p.startsWith('`') && p.endsWith('`')) || (p.startsWith('"') && p.endsWith('"')))) p = p.slice(1, -1);
  p = normalisePath(p.trim());
  if (p === '') fail(`\`*** ${what}:\` has no path`, lineNumber);
  return p;
}

interface FileDraft {
  op: 'update' | 'add' | 'delete';
  path: string;
  moveTo?: string;
  patchLine: number;
  hunks: Hunk[];
}

interface HunkDraft {
  hunk: Hunk;
  emptyInSource: boolean[];
  /** 1-based patch line of each hunk line. */
  sourceLine: number[];
}

export function parseApplyPatch(lines: readonly string[], cr: ReadonlySet<number> = new Set()): FormatParse & { claimed: ClaimedRanges } {
  return new ApplyPatchReader(cr).read(lines);
}

/** One pass over the patch's lines: markers open and close files and hunks; the lines between fill them. */
class ApplyPatchReader {
  private readonly files: FilePatch[] = [];
  private readonly warnings: string[] = [];
  private readonly claimed: ClaimedRanges = [];
  private readonly skipped = new SkippedLines();
  private envelopeStart = 0;
  private inEnvelope = false;
  private sawBegin = false;
  private file: FileDraft | undefined;
  private draft: HunkDraft | undefined;

  constructor(private readonly cr: ReadonlySet<number>) {}

  read(lines: readonly string[]): FormatParse & { claimed: ClaimedRanges } {
    for (let i = 0; i < lines.length; i++) this.line(lines[i]!, i);
    const unterminated = this.inEnvelope && this.file !== undefined;
    if (this.inEnvelope) this.claimed.push([this.envelopeStart, lines.length]);
    this.closeFile();
    if (unterminated) this.warnings.push('no `*** End Patch` at the end of the patch');
    const note = this.skipped.warning('outside the patch envelope');
    if (note) this.warnings.push(note);
    return { files: this.files, warnings: this.warnings, claimed: this.claimed };
  }

  /** Line `i` (0-based) of the patch. */
  private line(s: string, i: number): void {
    const n = i + 1;
    const marker = readMarker(s);
    if (!this.inEnvelope && !this.opensEnvelope(s, marker, i)) return;
    if (marker === 'unknown') fail(`unknown apply_patch marker ${quote(s)}: expected one of ${MARKER_LIST}`, n);
    if (marker) return this.marker(marker, i);
    if (isFence(s)) {
      this.skipped.note(s);
      // A fence inside the envelope closes it (the model forgot `*** End Patch`).
      this.closeFile();
      this.inEnvelope = false;
      this.claimed.push([this.envelopeStart, i]);
      return;
    }
    const file = this.file;
    if (!file) {
      if (isBlank(s)) return;
      fail(`expected \`*** Update File: path\`, \`*** Add File: path\` or \`*** Delete File: path\`, found ${quote(s)}`, n);
    }
    if (file.op === 'add') this.addFileLine(s, n, file);
    else if (file.op === 'delete') this.deleteFileLine(s, n, file);
    else this.updateFileLine(s, n);
  }

  /** Outside the envelope: true when this line opens it (and is then read as part of it). */
  private opensEnvelope(s: string, marker: ReturnType<typeof readMarker>, i: number): boolean {
    if (marker !== undefined && marker !== 'unknown' && marker.kind === 'begin') {
      this.inEnvelope = true;
      this.sawBegin = true;
      this.envelopeStart = i;
      return false; // consumed: nothing more to read on a Begin line
    }
    if (marker !== undefined && marker !== 'unknown' && (marker.kind === 'update' || marker.kind === 'add' || marker.kind === 'delete')) {
      this.inEnvelope = true;
      this.envelopeStart = i;
      if (!this.sawBegin) this.warnings.push(at(i + 1, 'no `*** Begin Patch` before the first file marker'));
      this.sawBegin = true;
      return true;
    }
    this.skipped.note(s);
    return false;
  }

  private marker(marker: { kind: MarkerKind; arg: string }, i: number): void {
    const n = i + 1;
    switch (marker.kind) {
      case 'begin':
        this.closeFile();
        return;
      case 'end':
        this.closeFile();
        this.inEnvelope = false;
        this.claimed.push([this.envelopeStart, i + 1]);
        return;
      case 'update':
      case 'add':
      case 'delete': {
        this.closeFile();
        const what = marker.kind === 'update' ? 'Update File' : marker.kind === 'add' ? 'Add File' : 'Delete File';
        this.file = { op: marker.kind, path: markerPath(marker.arg, what, n), patchLine: n, hunks: [] };
        return;
      }
      case 'move': {
        const file = this.file;
        if (!file || file.op !== 'update') fail('`*** Move to:` must follow `*** Update File: path`', n);
        if (file.moveTo !== undefined) fail(`second \`*** Move to:\` for ${file.path}`, n);
        if (file.hunks.length > 0 || this.draft) this.warnings.push(at(n, '`*** Move to:` after hunk lines; it belongs right after `*** Update File:`'));
        file.moveTo = markerPath(marker.arg, 'Move to', n);
        return;
      }
      case 'eof': {
        const file = this.file;
        if (!file || file.op !== 'update') fail('`*** End of File` outside an `*** Update File:` section', n);
        const target = this.draft?.hunk ?? file.hunks[file.hunks.length - 1];
        if (!target) fail('`*** End of File` before any hunk line', n);
        target.atEndOfFile = true;
        this.closeHunk();
        return;
      }
    }
  }

  private addFileLine(s: string, n: number, file: FileDraft): void {
    const c = s[0];
    if (c === '+') this.push({ kind: 'add', text: s.slice(1) }, false, n);
    else if (c === undefined) this.push({ kind: 'add', text: '' }, true, n);
    else if (s.startsWith('@@')) this.warnings.push(at(n, `\`${s}\` in \`*** Add File: ${file.path}\` ignored`));
    else this.push({ kind: 'add', text: s, unprefixed: true }, false, n);
  }

  private deleteFileLine(s: string, n: number, file: FileDraft): void {
    if (isBlank(s)) return;
    if (s[0] !== '-') fail(`\`*** Delete File: ${file.path}\` takes no content, found ${quote(s)}`, n);
    this.push({ kind: 'remove', text: s.slice(1) }, false, n);
  }

  private updateFileLine(s: string, n: number): void {
    if (s.startsWith('@@')) return this.hunkHeader(s, n);
    if (s.startsWith('\\ ')) return this.noNewlineMarker();
    const c = s[0];
    if (c === ' ') this.push({ kind: 'context', text: s.slice(1) }, false, n);
    else if (c === '+') this.push({ kind: 'add', text: s.slice(1) }, false, n);
    else if (c === '-') this.push({ kind: 'remove', text: s.slice(1) }, false, n);
    else if (c === undefined) this.push({ kind: 'context', text: '' }, true, n);
    else this.push({ kind: 'context', text: s, unprefixed: true }, false, n);
  }

  private hunkHeader(s: string, n: number): void {
    if (this.draft && this.draft.hunk.lines.length > 0) this.closeHunk();
    const d = this.draft ?? this.openHunk(n);
    const header = parseHunkHeader(s);
    if (header.anchor !== '') d.hunk.anchors.push(header.anchor);
    if (header.oldStart !== undefined && d.hunk.oldStart === undefined) {
      d.hunk.oldStart = header.oldStart;
      d.hunk.oldCount = header.oldCount;
    }
    if (header.newStart !== undefined && d.hunk.newStart === undefined) {
      d.hunk.newStart = header.newStart;
      d.hunk.newCount = header.newCount;
    }
  }

  /** `\ No newline at end of file` after a hunk line. */
  private noNewlineMarker(): void {
    const draft = this.draft;
    const last = draft?.hunk.lines[draft.hunk.lines.length - 1];
    if (!draft || !last) return;
    if (last.kind !== 'add') draft.hunk.oldNoNewlineAtEnd = true;
    if (last.kind !== 'remove') draft.hunk.newNoNewlineAtEnd = true;
    draft.hunk.atEndOfFile = true;
    keepCrAsContent(last);
  }

  private openHunk(lineNumber: number): HunkDraft {
    this.draft = { hunk: { index: 0, anchors: [], lines: [], patchLine: lineNumber }, emptyInSource: [], sourceLine: [] };
    return this.draft;
  }

  private push(line: HunkLine, emptyInSource: boolean, lineNumber: number): void {
    const eol = eolAt(this.cr, lineNumber - 1);
    if (eol) line.eol = eol;
    const d = this.draft ?? this.openHunk(lineNumber);
    d.hunk.lines.push(line);
    d.emptyInSource.push(emptyInSource);
    d.sourceLine.push(lineNumber);
  }

  private closeHunk(): void {
    const file = this.file;
    if (!this.draft || !file) return;
    const { hunk, emptyInSource, sourceLine } = this.draft;
    this.draft = undefined;
    const prose = dropProseTail(hunk.lines, emptyInSource, sourceLine, file.op === 'add');
    if (prose !== undefined) this.warnings.push(at(prose, `text after a blank line at the end of a hunk of ${file.path} read as prose, not part of the hunk`));
    if (file.op === 'add') {
      while (hunk.lines.length > 0 && emptyInSource[hunk.lines.length - 1]) {
        hunk.lines.pop();
        emptyInSource.pop();
      }
    } else {
      dropTrailingEmpty(hunk.lines, emptyInSource);
    }
    if (hunk.lines.length === 0 && file.op !== 'add') {
      if (hunk.anchors.length > 0) this.warnings.push(at(hunk.patchLine, `\`@@ ${hunk.anchors.join(' / ')}\` has no hunk lines after it; ignored`));
      return;
    }
    const unprefixed = sourceLine.filter((_, i) => i < hunk.lines.length && hunk.lines[i]!.unprefixed);
    if (unprefixed.length > 0) {
      const kind = file.op === 'add' ? 'added' : 'context';
      this.warnings.push(
        at(hunk.patchLine, `${file.path}: ${unprefixed.length} line(s) without a prefix read as ${kind} (lines ${unprefixed.slice(0, 5).join(', ')})`),
      );
    }
    if (file.op === 'update' && !changesSomething(hunk.lines)) {
      this.warnings.push(at(hunk.patchLine, `hunk ${file.hunks.length} of ${file.path} changes nothing (context lines only)`));
    }
    hunk.index = file.hunks.length;
    file.hunks.push(hunk);
  }

  private closeFile(): void {
    this.closeHunk();
    const f = this.file;
    if (!f) return;
    this.file = undefined;
    this.files.push(finishedFile(f));
  }
}

function finishedFile(f: FileDraft): FilePatch {
  if (f.op === 'add') {
    const hunk = f.hunks[0] ?? { index: 0, anchors: [], lines: [], patchLine: f.patchLine };
    return { operation: 'create', oldPath: null, newPath: f.path, hunks: [hunk], patchLine: f.patchLine };
  }
  if (f.op === 'delete') return { operation: 'delete', oldPath: f.path, newPath: null, hunks: f.hunks, patchLine: f.patchLine };
  if (f.moveTo !== undefined && f.moveTo !== f.path) return { operation: 'rename', oldPath: f.path, newPath: f.moveTo, hunks: f.hunks, patchLine: f.patchLine };
  if (f.hunks.length === 0) {
    fail(
      `\`*** Update File: ${f.path}\` has no changes: expected \`@@\` and hunk lines starting with ' ', '-' or '+' (or \`*** Move to: path\`) after it`,
      f.patchLine,
    );
  }
  return { operation: 'modify', oldPath: f.path, newPath: f.path, hunks: f.hunks, patchLine: f.patchLine };
}
