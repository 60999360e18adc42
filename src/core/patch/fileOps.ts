import type { LineWork } from './fileIndex';
import type { FilePatch, FileResult, Hunk, HunkResult, HunkStatus, PatchFormat } from './types';
import { applyHunksToText } from './applyHunks';
import { applyInSequence } from './applySequence';
import { oldSide } from './locate';
import { keyAt } from './normalize';
import { splitText, textFromLines } from './text';
import { hunkId, hunkLabel } from './describe';
import type { EditScript } from './editScript';

/** The in-memory workspace a patch is computed against: path -> text, null = absent. */
export interface WorkState {
  texts: Map<string, string | null>;
  /** Files that exist but cannot be patched as text (binary, not UTF-8), with the reason. */
  unreadable: ReadonlyMap<string, string>;
  /** Paths that may not be touched at all (outside the workspace, through a symlink), with the reason. */
  blocked: ReadonlyMap<string, string>;
  /** current path -> path the file had before the patch (renames). */
  origin: Map<string, string>;
  /** Last edit script per path, for the reverse patch (used only when it spans the net change). */
  scripts: Map<string, EditScript>;
}

export interface FileOpOptions {
  placedStatus: HunkStatus;
  accepted?: ReadonlySet<string>;
  /** The patch's format decides the peers' semantics (see ApplyHunksOptions.format). */
  format: PatchFormat;
  /** Counts the file lines the placement looked at (ApplyHunksOptions.work). */
  work?: LineWork;
}

/** Validates a workspace-relative path as text (the PatchManager also checks the real path on disk). */
export function pathProblem(p: string): string | undefined {
  if (p === '' || p.includes('\0')) return 'empty or invalid path';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.startsWith('\\')) return `absolute path "${p}" is outside the workspace`;
  if (p.includes('\\')) return `path "${p}" contains a backslash; use forward slashes`;
  if (p.split('/').some((seg) => seg === '..')) return `path "${p}" escapes the workspace with ".."`;
  return undefined;
}

const get = (s: WorkState, p: string | null) => (p === null ? null : (s.texts.get(p) ?? null));

/** Applies one file section to the state (mutating it only on success). */
export function applyFilePatch(fp: FilePatch, state: WorkState, opts: FileOpOptions): FileResult {
  const op = new FileOp(fp, state, opts);
  const refusal = op.refusal();
  if (refusal) return refusal;
  if (!op.hunks.some(op.selected)) return op.untouched();
  const current = get(state, fp.oldPath);
  if (fp.operation === 'create' || (fp.operation === 'modify' && current === null && fp.hunks.every((h) => oldSide(h.lines).length === 0))) {
    return op.create();
  }
  if (current === null)
    return op.refused(
      `${fp.oldPath}: the file does not exist${fp.operation === 'modify' ? '; to create it, use /dev/null as the old side (or *** Add File)' : ''}`,
    );
  return fp.operation === 'delete' ? op.delete(current) : op.change(current);
}

/** One file section on its way to the state: the checks, then its create, delete or change. */
class FileOp {
  /** The path the section is reported under. */
  private readonly path: string;
  private readonly base: Pick<FileResult, 'operation' | 'oldPath' | 'newPath'>;
  /** The selectable units: the hunks, or for create/delete/rename without hunks one unit, id `${path}#1`. */
  readonly hunks: Hunk[];

  constructor(
    private readonly fp: FilePatch,
    private readonly state: WorkState,
    private readonly opts: FileOpOptions,
  ) {
    this.path = (fp.operation === 'delete' ? fp.oldPath : fp.newPath) ?? fp.oldPath ?? '';
    this.base = { operation: fp.operation, oldPath: fp.oldPath, newPath: fp.newPath };
    const unit: Hunk = { index: 0, anchors: [], lines: [], patchLine: fp.patchLine };
    this.hunks = fp.hunks.length > 0 ? fp.hunks : fp.operation === 'modify' ? [] : [unit];
  }

  readonly selected = (h: { index: number }): boolean => !this.opts.accepted || this.opts.accepted.has(hunkId(this.path, h.index));

  refused(reason: string, hunkResults?: HunkResult[]): FileResult {
    const path = this.path;
    return {
      ...this.base,
      status: 'refused',
      reason,
      hunks:
        hunkResults ??
        this.hunks.map((h) => ({
          id: hunkId(path, h.index),
          path,
          index: h.index,
          status: this.selected(h) ? 'refused' : 'rejected',
          ...(this.selected(h) ? { reason } : {}),
        })),
    };
  }

  private done(oldText: string | null, newText: string | null, strategy: 'create' | 'delete', extra: Partial<HunkResult> = {}): FileResult {
    const path = this.path;
    return {
      ...this.base,
      status: 'ok',
      oldText,
      newText,
      hunks: this.hunks.map((h) => ({
        id: hunkId(path, h.index),
        path,
        index: h.index,
        ...(this.selected(h)
          ? { status: this.opts.placedStatus, strategy, confidence: 1, range: { start: 1, end: 0 }, ...extra }
          : { status: 'rejected' as const }),
      })),
    };
  }

  /** Why the section cannot be applied whatever the file holds (its paths, binary, no hunks). */
  refusal(): FileResult | undefined {
    const { fp, state, path } = this;
    for (const p of [fp.oldPath, fp.newPath]) {
      const problem = p === null ? undefined : pathProblem(p);
      if (problem) return this.refused(`${path}: ${problem}`);
      const blocked = p === null ? undefined : state.blocked.get(p);
      if (blocked) return this.refused(`${p}: ${blocked}`);
    }
    if (fp.binary) return this.refused(`${path}: binary patches cannot be applied; change binary files another way`);
    const unreadable = fp.oldPath !== null ? state.unreadable.get(fp.oldPath) : undefined;
    if (unreadable) return this.refused(`${fp.oldPath}: ${unreadable}`);
    if (fp.operation === 'modify' && fp.hunks.length === 0) return this.refused(`${path}: the file section has no hunks`);
    return undefined;
  }

  /** No unit accepted: the file stays as it is. */
  untouched(): FileResult {
    const t = get(this.state, this.fp.oldPath);
    const path = this.path;
    return {
      ...this.base,
      status: 'ok',
      oldText: t,
      newText: t,
      hunks: this.hunks.map((h) => ({ id: hunkId(path, h.index), path, index: h.index, status: 'rejected' })),
    };
  }

  create(): FileResult {
    const { fp, state, opts } = this;
    const target = fp.newPath!;
    // SEARCH/REPLACE: the empty-SEARCH block creates the file, the blocks after it edit that text.
    const sequential = opts.format === 'search_replace';
    const first: Hunk | undefined = sequential ? fp.hunks[0] : undefined;
    const later = sequential ? fp.hunks.slice(1) : [];
    const created = createdText(first ? { ...fp, hunks: [first] } : fp);
    if (typeof created !== 'string') return this.refused(`${target}: ${created.error}`);
    const existing = get(state, target);
    if (existing !== null && existing !== '') {
      if (later.length === 0 && sameText(existing, created)) return this.done(existing, existing, 'create', { note: 'the file already has this content' });
      return this.refused(`${target}: cannot create the file, it already exists with different content; send a diff that modifies it instead`);
    }
    // An existing empty file is filled (nothing in it can be lost or misplaced).
    const crlf = crlfCreateNote(fp);
    const note = existing === '' ? { ...crlf, note: ['the file existed and was empty', crlf.note].filter(Boolean).join('; ') } : crlf;
    if (later.length === 0) {
      state.texts.set(target, created);
      return this.done(existing, created, 'create', note);
    }
    if (!this.selected(first!)) return this.refused(`${target}: the block that creates the file was not accepted, so the blocks after it have nothing to edit`);
    const out = applyInSequence(created, later, { path: target, placedStatus: opts.placedStatus, isSelected: this.selected, format: opts.format });
    const createResult = this.done(existing, created, 'create', note).hunks[0]!;
    if (!out.ok) return this.refused(out.reason ?? `${target}: refused`, [{ ...createResult, status: 'would-apply' }, ...out.hunks]);
    state.texts.set(target, out.newText!);
    return { ...this.base, status: 'ok', oldText: existing, newText: out.newText!, hunks: [createResult, ...out.hunks] };
  }

  delete(current: string): FileResult {
    const fp = this.fp;
    const given = fp.hunks.flatMap((h) => oldSide(h.lines));
    if (given.length > 0 && !matchesWhole(current, given)) {
      return this.refused(
        `${fp.oldPath}: refusing to delete, the content listed in the patch differs from the file; send the delete without content or with the file's current content`,
      );
    }
    this.state.texts.set(fp.oldPath!, null);
    return this.done(current, null, 'delete', { range: { start: 1, end: splitText(current).lines.length } });
  }

  /** A modify or a rename: the hunks placed in the current text. */
  change(current: string): FileResult {
    const { fp, state, opts, path } = this;
    let text = current;
    let hunkResults: HunkResult[] = this.hunks.map((h) => ({ id: hunkId(path, h.index), path, index: h.index, status: opts.placedStatus }));
    if (fp.hunks.length > 0) {
      const hunkOpts = { path, placedStatus: opts.placedStatus, isSelected: this.selected, format: opts.format, work: opts.work };
      // SEARCH/REPLACE blocks apply in order (aider, Cline); diff hunks are placed against the original.
      const out = opts.format === 'search_replace' ? applyInSequence(current, fp.hunks, hunkOpts) : applyHunksToText(current, fp.hunks, hunkOpts);
      if (!out.ok) return this.refused(out.reason ?? `${path}: refused`, out.hunks);
      text = out.newText!;
      hunkResults = out.hunks;
      if (out.script) state.scripts.set(fp.newPath!, out.script);
    }
    if (fp.operation === 'rename') {
      const target = fp.newPath!;
      if (get(state, target) !== null && target !== fp.oldPath) return this.refused(`${target}: cannot rename ${fp.oldPath} onto an existing file`);
      state.texts.set(fp.oldPath!, null);
      state.origin.set(target, state.origin.get(fp.oldPath!) ?? fp.oldPath!);
    }
    state.texts.set(fp.newPath!, text);
    return { ...this.base, status: 'ok', oldText: current, newText: text, hunks: hunkResults };
  }
}

/**
 * New file content: the added lines. Lines without a prefix count as content; a removed line is an
 * error. A line that carries its own ending (a patch that mixes endings: `git diff` of a new CRLF
 * file) keeps it; the others get LF, the ending of every file the engine creates.
 */
function createdText(fp: FilePatch): string | { error: string } {
  const lines: string[] = [];
  const eols: string[] = [];
  let noNewline = false;
  for (const h of fp.hunks) {
    for (const l of h.lines) {
      if (l.kind === 'remove') return { error: `${hunkLabel(fp.newPath ?? '', h)}: a new file cannot have removed lines` };
      if (l.kind === 'context' && !l.unprefixed)
        return { error: `${hunkLabel(fp.newPath ?? '', h)}: a new file cannot have context lines (prefix its lines with "+")` };
      lines.push(l.text);
      eols.push(l.eol ?? '\n');
    }
    noNewline = !!h.newNoNewlineAtEnd;
  }
  if (!eols.includes('\r\n')) return textFromLines(lines, !noNewline);
  return lines.map((t, i) => t + (i < lines.length - 1 || !noNewline ? eols[i] : '')).join('');
}

/** A file created from a patch whose every line ended in CRLF: written LF, and the report says so. */
function crlfCreateNote(fp: FilePatch): Partial<HunkResult> {
  if (!fp.hunks.some((h) => h.crlfPatch)) return {};
  return {
    confidence: 0.99,
    note: 'line endings inferred: LF, as every file the engine creates (every line of the patch ended in CRLF, which says how it was carried, not what the file holds)',
  };
}

function sameText(a: string, b: string): boolean {
  return a === b || a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}

function matchesWhole(text: string, given: readonly string[]): boolean {
  const lines = splitText(text).lines.map((l) => l.text);
  while (lines.length > given.length && keyAt('whitespace', lines[lines.length - 1]!) === '') lines.pop();
  const want = [...given];
  while (want.length > lines.length && keyAt('whitespace', want[want.length - 1]!) === '') want.pop();
  return lines.length === want.length && lines.every((l, i) => keyAt('whitespace', l) === keyAt('whitespace', want[i]!));
}
