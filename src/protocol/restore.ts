/**
 * "Restore to Here" in the chat and the history panel: the preview of a restore (the files it would
 * change, the ones that block it), its outcome, and a restore done (the chat shows it with Redo).
 * The work is the core's (src/core/checkpoint); these are only its views. Zero imports.
 */

/** Which restore: a run to before one of its steps; `redo` undoes the last such restore instead. */
export interface RestoreRequest {
  runId: string;
  beforeStep: number;
  redo: boolean;
}

export interface RestoreFileView {
  path: string;
  /** One line as the CLI prints it ("restore  src/a.js", "remove   out.txt (created by the run)"). */
  line: string;
  /** A text file whose content changes: the native diff editor can show it. */
  diff: boolean;
}

export interface RestoreBlockView {
  path: string;
  reason: string;
}

export type RestorePreview =
  { ok: true; request: RestoreRequest; steps: number[]; files: RestoreFileView[]; blocked: RestoreBlockView[] } | { ok: false; message: string };

export interface RestoreOutcome {
  ok: boolean;
  message: string;
  restored: string[];
  blocked: RestoreBlockView[];
}

/** A restore (or redo) that wrote files: the chat keeps it as a line, the newest with "Redo restore ...". */
export interface RestoreDone {
  request: RestoreRequest;
  restored: string[];
  /** Blocked files left as they were (Restore the rest). */
  skipped: RestoreBlockView[];
  at: number;
}

/** One step of a run that changed files (from the checkpoint store), for the history panel. */
export interface RestorePointView {
  step: number;
  tools: string[];
  paths: string[];
  at: number;
}

/** What a restore button says: "Restore to before step 3", "Redo restore to before step 3". */
export function restoreActionName(request: RestoreRequest): string {
  return `${request.redo ? 'Redo restore' : 'Restore'} to before step ${request.beforeStep}`;
}
