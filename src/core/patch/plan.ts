import type { LineWork } from './fileIndex';
import type { ApplyOptions, ApplyResult, FileResult, ParsedPatch } from './types';
import { err, type Result } from '../base';
import { parsePatch } from './parse';
import { applyFilePatch, type WorkState } from './fileOps';
import { buildReversePatch, type FileChange } from './reverse';
import { errorMessage } from '../base';

/**
 * The whole patch in memory: every file section is computed against the evolving state, and the
 * result is all or nothing. Pure: never touches the disk, never throws.
 */

export interface PlanExtras {
  /** Existing files that cannot be patched as text, with the reason (binary, not UTF-8). */
  unreadable?: ReadonlyMap<string, string>;
  /** Paths that may not be touched (outside the workspace), with the reason. */
  blocked?: ReadonlyMap<string, string>;
  /** Git modes of existing files, for the reverse patch. */
  modes?: ReadonlyMap<string, string>;
  /** Counts the file lines the placement looked at: the engine's work, for tests (test/unit/patch/apply/scaling.test.ts). */
  work?: LineWork;
}

export interface Plan extends ApplyResult {
  /** Final state of every path the patch touched: text, or null when it no longer exists. */
  finalTexts: Map<string, string | null>;
  /** The changes to write (paths whose existence or text changed). */
  changes: FileChange[];
}

export function applyPatchToTexts(patchText: string, files: ReadonlyMap<string, string>, options: ApplyOptions = {}): ApplyResult {
  const { finalTexts: _f, changes: _c, ...result } = planPatch(patchText, files, options);
  return result;
}

export function planPatch(patchText: string, files: ReadonlyMap<string, string>, options: ApplyOptions = {}, extras: PlanExtras = {}): Plan {
  const parsed = parseForApply(patchText);
  return parsed.ok ? applyParsedPatch(parsed.value, files, options, extras) : failed(options, parsed.error);
}

/** Parses patch text, or gives the refusal every apply entry point reports (parsePatch never throws). */
export function parseForApply(patchText: string): Result<ParsedPatch> {
  const parsed = parsePatch(patchText);
  if (parsed.ok) return parsed;
  const where = parsed.error.line ? ` (patch line ${parsed.error.line})` : '';
  return err(`could not parse the patch${where}: ${parsed.error.message}`);
}

/** Internal entry (tests build ParsedPatch objects by hand). */
export function applyParsedPatch(parsed: ParsedPatch, files: ReadonlyMap<string, string>, options: ApplyOptions = {}, extras: PlanExtras = {}): Plan {
  try {
    return applyParsedUnsafe(parsed, files, options, extras);
  } catch (e) {
    // A bug must never become a half-applied or silently wrong patch: refuse with the cause.
    return failed(options, `internal error while applying the patch: ${errorMessage(e)}`);
  }
}

function applyParsedUnsafe(parsed: ParsedPatch, files: ReadonlyMap<string, string>, options: ApplyOptions, extras: PlanExtras): Plan {
  const plan = placeAll(parsed, files, options, extras);
  return parsed.warnings?.length ? { ...plan, warnings: [...parsed.warnings] } : plan;
}

function placeAll(parsed: ParsedPatch, files: ReadonlyMap<string, string>, options: ApplyOptions, extras: PlanExtras): Plan {
  const dryRun = !!options.dryRun;
  if (parsed.files.length === 0) return failed(options, 'the patch contains no file changes', parsed.format);
  const state: WorkState = {
    texts: new Map(files),
    unreadable: extras.unreadable ?? new Map(),
    blocked: extras.blocked ?? new Map(),
    origin: new Map(),
    scripts: new Map(),
  };
  const touched = new Set<string>();
  const results: FileResult[] = [];
  for (const fp of parsed.files) {
    const r = applyFilePatch(fp, state, {
      placedStatus: dryRun ? 'would-apply' : 'applied',
      accepted: options.acceptedHunks,
      format: parsed.format,
      work: extras.work,
    });
    results.push(r);
    if (r.status === 'ok') for (const p of [fp.oldPath, fp.newPath]) if (p) touched.add(p);
  }
  const ok = results.every((r) => r.status === 'ok');
  if (!ok) {
    for (const r of results) for (const h of r.hunks) if (h.status === 'applied') h.status = 'would-apply';
    const reasons = results.filter((r) => r.status === 'refused').map((r) => r.reason);
    return {
      ok: false,
      dryRun,
      format: parsed.format,
      files: results,
      reversePatch: '',
      finalTexts: new Map(),
      changes: [],
      error: `The patch was not applied (it applies all or nothing). ${reasons.length} problem(s):\n\n${reasons.join('\n\n')}`,
    };
  }
  const changes = collectChanges(files, state, touched, extras.modes);
  for (const c of changes) {
    const script = c.newPath ? state.scripts.get(c.newPath) : undefined;
    // Only a script that spans exactly the net change may stand in for a diff.
    if (script && script.oldText === c.oldText && script.newText === c.newText) c.script = script;
  }
  const finalTexts = new Map<string, string | null>();
  for (const p of touched) finalTexts.set(p, state.texts.get(p) ?? null);
  return { ok: true, dryRun, format: parsed.format, files: results, reversePatch: buildReversePatch(changes), finalTexts, changes };
}

/** Net effect per path, with renames kept as renames so the reverse patch moves the file back. */
function collectChanges(
  original: ReadonlyMap<string, string>,
  state: WorkState,
  touched: ReadonlySet<string>,
  modes?: ReadonlyMap<string, string>,
): FileChange[] {
  const changes: FileChange[] = [];
  const consumed = new Set<string>();
  const before = (p: string) => original.get(p) ?? null;
  const after = (p: string) => state.texts.get(p) ?? null;
  for (const p of [...touched].sort()) {
    const from = state.origin.get(p);
    if (from && from !== p && after(p) !== null && before(p) === null && after(from) === null && before(from) !== null) {
      changes.push({ oldPath: from, newPath: p, oldText: before(from), newText: after(p), mode: modes?.get(from) });
      consumed.add(from);
    }
  }
  for (const p of [...touched].sort()) {
    if (consumed.has(p) || changes.some((c) => c.newPath === p)) continue;
    const a = before(p);
    const b = after(p);
    if (a === b) continue;
    changes.push({ oldPath: a === null ? null : p, newPath: b === null ? null : p, oldText: a, newText: b, mode: modes?.get(state.origin.get(p) ?? p) });
  }
  return changes;
}

function failed(options: ApplyOptions, error: string, format?: ParsedPatch['format']): Plan {
  return { ok: false, dryRun: !!options.dryRun, ...(format ? { format } : {}), files: [], reversePatch: '', error, finalTexts: new Map(), changes: [] };
}
