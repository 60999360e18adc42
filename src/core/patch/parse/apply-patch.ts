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
  const files: FilePatch[] = [];
  const warnings: string[] = [];
  const claimed: ClaimedRanges = [];
  let envelopeStart = 0;
  let inEnvelope = false;
  let sawBegin = false;
  const skipped = new SkippedLines();
  let file: FileDraft | undefined;
  let draft: HunkDraft | undefined;

  const openHunk = (lineNumber: number): HunkDraft => {
    draft = { hunk: { index: 0, anchors: [], lines: [], patchLine: lineNumber }, emptyInSource: [], sourceLine: [] };
    return draft;
  };
  const push = (line: HunkLine, emptyInSource: boolean, lineNumber: number) => {
    const eol = eolAt(cr, lineNumber - 1);
    if (eol) line.eol = eol;
    const d = draft ?? openHunk(lineNumber);
    d.hunk.lines.push(line);
    d.emptyInSource.push(emptyInSource);
    d.sourceLine.push(lineNumber);
  };

  const closeHunk = () => {
    if (!draft || !file) return;
    const { hunk, emptyInSource, sourceLine } = draft;
    draft = undefined;
    const prose = dropProseTail(hunk.lines, emptyInSource, sourceLine, file.op === 'add');
    if (prose !== undefined) warnings.push(at(prose, `text after a blank line at the end of a hunk of ${file.path} read as prose, not part of the hunk`));
    if (file.op === 'add') {
      while (hunk.lines.length > 0 && emptyInSource[hunk.lines.length - 1]) {
        hunk.lines.pop();
        emptyInSource.pop();
      }
    } else {
      dropTrailingEmpty(hunk.lines, emptyInSource);
    }
    if (hunk.lines.length === 0 && file.op !== 'add') {
      if (hunk.anchors.length > 0) warnings.push(at(hunk.patchLine, `\`@@ ${hunk.anchors.join(' / ')}\` has no hunk lines after it; ignored`));
      return;
    }
    const unprefixed = sourceLine.filter((_, i) => i < hunk.lines.length && hunk.lines[i]!.unprefixed);
    if (unprefixed.length > 0) {
      const kind = file.op === 'add' ? 'added' : 'context';
      warnings.push(
        at(hunk.patchLine, `${file.path}: ${unprefixed.length} line(s) without a prefix read as ${kind} (lines ${unprefixed.slice(0, 5).join(', ')})`),
      );
    }
    if (file.op === 'update' && !changesSomething(hunk.lines)) {
      warnings.push(at(hunk.patchLine, `hunk ${file.hunks.length} of ${file.path} changes nothing (context lines only)`));
    }
    hunk.index = file.hunks.length;
    file.hunks.push(hunk);
  };

  const closeFile = () => {
    closeHunk();
    if (!file) return;
    const f = file;
    file = undefined;
    if (f.op === 'add') {
      const hunk = f.hunks[0] ?? { index: 0, anchors: [], lines: [], patchLine: f.patchLine };
      files.push({ operation: 'create', oldPath: null, newPath: f.path, hunks: [hunk], patchLine: f.patchLine });
    } else if (f.op === 'delete') {
      files.push({ operation: 'delete', oldPath: f.path, newPath: null, hunks: f.hunks, patchLine: f.patchLine });
    } else if (f.moveTo !== undefined && f.moveTo !== f.path) {
      files.push({ operation: 'rename', oldPath: f.path, newPath: f.moveTo, hunks: f.hunks, patchLine: f.patchLine });
    } else {
      if (f.hunks.length === 0) {
        fail(
          `\`*** Update File: ${f.path}\` has no changes: expected \`@@\` and hunk lines starting with ' ', '-' or '+' (or \`*** Move to: path\`) after it`,
          f.patchLine,
        );
      }
      files.push({ operation: 'modify', oldPath: f.path, newPath: f.path, hunks: f.hunks, patchLine: f.patchLine });
    }
  };

  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!;
    const n = i + 1;
    const marker = readMarker(s);
    if (!inEnvelope) {
      if (marker !== undefined && marker !== 'unknown' && marker.kind === 'begin') {
        inEnvelope = true;
        sawBegin = true;
        envelopeStart = i;
        continue;
      }
      if (marker !== undefined && marker !== 'unknown' && (marker.kind === 'update' || marker.kind === 'add' || marker.kind === 'delete')) {
        inEnvelope = true;
        envelopeStart = i;
        if (!sawBegin) warnings.push(at(n, 'no `*** Begin Patch` before the first file marker'));
        sawBegin = true;
      } else {
        skipped.note(s);
        continue;
      }
    }
    if (marker === 'unknown') fail(`unknown apply_patch marker ${quote(s)}: expected one of ${MARKER_LIST}`, n);
    if (marker) {
      switch (marker.kind) {
        case 'begin':
          closeFile();
          continue;
        case 'end':
          closeFile();
          inEnvelope = false;
          claimed.push([envelopeStart, i + 1]);
          continue;
        case 'update':
        case 'add':
        case 'delete': {
          closeFile();
          const what = marker.kind === 'update' ? 'Update File' : marker.kind === 'add' ? 'Add File' : 'Delete File';
          file = { op: marker.kind, path: markerPath(marker.arg, what, n), patchLine: n, hunks: [] };
          continue;
        }
        case 'move':
          if (!file || file.op !== 'update') fail('`*** Move to:` must follow `*** Update File: path`', n);
          if (file.moveTo !== undefined) fail(`second \`*** Move to:\` for ${file.path}`, n);
          if (file.hunks.length > 0 || draft) warnings.push(at(n, '`*** Move to:` after hunk lines; it belongs right after `*** Update File:`'));
          file.moveTo = markerPath(marker.arg, 'Move to', n);
          continue;
        case 'eof': {
          if (!file || file.op !== 'update') fail('`*** End of File` outside an `*** Update File:` section', n);
          const target = draft?.hunk ?? file.hunks[file.hunks.length - 1];
          if (!target) fail('`*** End of File` before any hunk line', n);
          target.atEndOfFile = true;
          closeHunk();
          continue;
        }
      }
    }
    if (isFence(s)) {
      skipped.note(s);
      // A fence inside the envelope closes it (the model forgot `*** End Patch`).
      closeFile();
      inEnvelope = false;
      claimed.push([envelopeStart, i]);
      continue;
    }
    if (!file) {
      if (isBlank(s)) continue;
      fail(`expected \`*** Update File: path\`, \`*** Add File: path\` or \`*** Delete File: path\`, found ${quote(s)}`, n);
    }
    const c = s[0];
    if (file.op === 'add') {
      if (c === '+') push({ kind: 'add', text: s.slice(1) }, false, n);
      else if (c === undefined) push({ kind: 'add', text: '' }, true, n);
      else if (s.startsWith('@@')) warnings.push(at(n, `\`${s}\` in \`*** Add File: ${file.path}\` ignored`));
      else push({ kind: 'add', text: s, unprefixed: true }, false, n);
      continue;
    }
    if (file.op === 'delete') {
      if (isBlank(s)) continue;
      if (c !== '-') fail(`\`*** Delete File: ${file.path}\` takes no content, found ${quote(s)}`, n);
      push({ kind: 'remove', text: s.slice(1) }, false, n);
      continue;
    }
    if (s.startsWith('@@')) {
      if (draft && draft.hunk.lines.length > 0) closeHunk();
      const d = draft ?? openHunk(n);
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
      continue;
    }
    if (s.startsWith('\\ ')) {
      const last = draft?.hunk.lines[draft.hunk.lines.length - 1];
      if (draft && last) {
        if (last.kind !== 'add') draft.hunk.oldNoNewlineAtEnd = true;
        if (last.kind !== 'remove') draft.hunk.newNoNewlineAtEnd = true;
        draft.hunk.atEndOfFile = true;
        keepCrAsContent(last);
      }
      continue;
    }
    if (c === ' ') push({ kind: 'context', text: s.slice(1) }, false, n);
    else if (c === '+') push({ kind: 'add', text: s.slice(1) }, false, n);
    else if (c === '-') push({ kind: 'remove', text: s.slice(1) }, false, n);
    else if (c === undefined) push({ kind: 'context', text: '' }, true, n);
    else push({ kind: 'context', text: s, unprefixed: true }, false, n);
  }
  const unterminated = inEnvelope && file !== undefined;
  if (inEnvelope) claimed.push([envelopeStart, lines.length]);
  closeFile();
  if (unterminated) warnings.push('no `*** End Patch` at the end of the patch');
  const note = skipped.warning('outside the patch envelope');
  if (note) warnings.push(note);
  return { files, warnings, claimed };
}
