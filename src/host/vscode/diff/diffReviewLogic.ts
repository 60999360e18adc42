/**
 * The pure part of the diff review (no `vscode` import; unit-tested in plain Node): what the
 * right-hand side shows for a set of accepted hunks, where each hunk sits in it (for the CodeLens),
 * and how the user's decisions and edits become the Approver's answer.
 */
import { applyPatchToTexts } from '../../../core/patch';
import { buildReversePatch } from '../../../core/patch';
import type { ApplyResult, FileResult } from '../../../core/patch';
import type { PatchApprovalAnswer } from '../../../core/ports';

export interface ReviewHunk {
  id: string;
  /** 1-based first and last line of the matched old text (end = start - 1: a pure insertion). */
  oldStart: number;
  oldEnd: number;
}

export interface ReviewFile {
  /** Path the diff shows (the new path; the old one for a delete). */
  path: string;
  /** The current text (left), unsaved edits included; null for a file the patch creates. */
  leftText: string | null;
  hunks: ReviewHunk[];
}

export interface HunkChoice {
  accepted: boolean;
  reason?: string;
}

const linesOf = (t: string | null | undefined) => (t ? t.split('\n').length : 0);

/** The files of a dry run, with their hunks in file order. */
export function reviewFiles(preview: ApplyResult): ReviewFile[] {
  return preview.files.map((f: FileResult) => ({
    path: (f.newPath ?? f.oldPath)!,
    leftText: f.oldText ?? null,
    hunks: f.hunks
      .filter((h) => h.status === 'would-apply' || h.status === 'applied')
      .map((h) => ({ id: h.id, oldStart: h.range?.start ?? 1, oldEnd: h.range?.end ?? 0 }))
      .sort((a, b) => a.oldStart - b.oldStart),
  }));
}

/**
 * What each file looks like with only these hunks: the engine's own dry run on the left texts, so
 * the right-hand side is byte for byte what an apply with these hunks would write. null: deleted.
 */
export function rightTexts(patchText: string, files: readonly ReviewFile[], accepted: ReadonlySet<string>): Map<string, string | null> {
  const texts = new Map<string, string>();
  for (const f of files) if (f.leftText !== null) texts.set(f.path, f.leftText);
  const result = applyPatchToTexts(patchText, texts, { dryRun: true, acceptedHunks: accepted });
  const out = new Map<string, string | null>();
  for (const f of files) {
    const r = result.files.find((x) => (x.newPath ?? x.oldPath) === f.path);
    out.set(f.path, r && r.status === 'ok' ? (r.newText ?? null) : f.leftText);
  }
  return out;
}

/** How many lines each hunk adds (negative: removes), measured by applying it alone. */
export function hunkDeltas(patchText: string, file: ReviewFile, allFiles: readonly ReviewFile[]): Map<string, number> {
  const base = linesOf(file.leftText);
  const deltas = new Map<string, number>();
  for (const h of file.hunks) deltas.set(h.id, linesOf(rightTexts(patchText, allFiles, new Set([h.id])).get(file.path)) - base);
  return deltas;
}

export interface HunkPlacement {
  id: string;
  /** 0-based first line of the hunk's region in the right-hand text. */
  line: number;
  /** Lines of that region (0 for an accepted pure deletion or a rejected pure insertion). */
  lineCount: number;
  accepted: boolean;
}

/** Where each hunk sits in the right-hand text, given which are accepted (accepted hunks before it shift it). */
export function placeHunks(file: ReviewFile, deltas: ReadonlyMap<string, number>, accepted: ReadonlySet<string>): HunkPlacement[] {
  let shift = 0;
  return file.hunks.map((h) => {
    const oldLen = Math.max(0, h.oldEnd - h.oldStart + 1);
    const isAccepted = accepted.has(h.id);
    const delta = deltas.get(h.id) ?? 0;
    const placement = {
      id: h.id,
      line: Math.max(0, h.oldStart - 1 + shift),
      lineCount: isAccepted ? Math.max(0, oldLen + delta) : oldLen,
      accepted: isAccepted,
    };
    if (isAccepted) shift += delta;
    return placement;
  });
}

/** VS Code normalises a document's line endings on open: a CRLF/LF mix alone is not an edit by the user. */
export function sameText(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return a === b || a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}

export interface AnswerInput {
  files: readonly ReviewFile[];
  /** The user's choice per hunk id; hunks without one count as accepted. */
  choices: ReadonlyMap<string, HunkChoice>;
  /** What the engine produces for the accepted hunks (rightTexts). */
  engineTexts: ReadonlyMap<string, string | null>;
  /** What the right-hand documents hold now (the user may have typed in them). */
  documentTexts: ReadonlyMap<string, string | null>;
  feedback?: string;
}

/**
 * The Approver's answer: accepted hunk ids, the reasons of rejected ones, and, when the user typed
 * in a right-hand side, an editedPatch (current files -> the documents' text) to apply instead.
 */
export function buildAnswer(input: AnswerInput): PatchApprovalAnswer {
  const ids = input.files.flatMap((f) => f.hunks.map((h) => h.id));
  const acceptedHunks = ids.filter((id) => input.choices.get(id)?.accepted !== false);
  const hunkReasons: Record<string, string> = {};
  for (const id of ids) {
    const c = input.choices.get(id);
    if (c && !c.accepted && c.reason?.trim()) hunkReasons[id] = c.reason.trim();
  }
  const edited = input.files.some((f) => input.documentTexts.has(f.path) && !sameText(input.documentTexts.get(f.path)!, input.engineTexts.get(f.path) ?? null));
  let editedPatch: string | undefined;
  if (edited) {
    // buildReversePatch writes a diff from newText to oldText: left as "new", the user's text as "old".
    editedPatch = buildReversePatch(
      input.files.map((f) => {
        const wanted = input.documentTexts.has(f.path) ? input.documentTexts.get(f.path)! : (input.engineTexts.get(f.path) ?? null);
        return { oldPath: f.path, newPath: f.path, oldText: wanted, newText: f.leftText };
      }),
    );
  }
  return {
    acceptedHunks,
    ...(Object.keys(hunkReasons).length ? { hunkReasons } : {}),
    ...(input.feedback?.trim() ? { feedback: input.feedback.trim() } : {}),
    ...(editedPatch ? { editedPatch } : {}),
  };
}

/** Everything rejected (the title bar's Reject), with an optional reason for the model. */
export function rejectAll(reason?: string): PatchApprovalAnswer {
  return { acceptedHunks: [], ...(reason?.trim() ? { feedback: reason.trim() } : {}) };
}

/** The hunk whose region holds this 0-based line of the right-hand text (the one just above it when between hunks). */
export function hunkAtLine(placements: readonly HunkPlacement[], line: number): HunkPlacement | undefined {
  let best: HunkPlacement | undefined;
  for (const p of placements) if (p.line <= line) best = p;
  return best ?? placements[0];
}
