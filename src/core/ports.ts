/**
 * Interfaces the host implements (VS Code in src/host/vscode, Node in src/cli, fakes in tests).
 * Core code depends on these, never on a host directly.
 */

/** Tells the user something without blocking the work. */
export interface Notifier {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Time source, replaceable in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

// ---- Approval (agent tools). The host shows the request and answers; core never decides for the user.

/** A proposed patch, dry-run already: `preview.files[].hunks[]` carry ids (`${path}#${index}`), ranges and reasons. */
export interface PatchApprovalRequest {
  patchText: string;
  preview: import('./patch/types').ApplyResult;
}

export interface PatchApprovalAnswer {
  /** Ids of the hunks the user accepts; empty rejects the patch. */
  acceptedHunks: string[];
  /** Optional words for the model ("use a Map instead"). */
  feedback?: string;
}

/** Anything but a patch that needs a yes or no: a command, an overwrite, a test command changed in this run. */
export interface ActionApprovalRequest {
  kind: 'command' | 'write' | 'tests' | 'fetch';
  /** One line for the prompt, e.g. the command or the path. */
  title: string;
  /** Why it asks (the policy reason), shown under the title. */
  reason: string;
  /** Extra detail for the host to show (the new file content, the cwd). */
  detail?: string;
}

export interface ActionApprovalAnswer {
  approved: boolean;
  feedback?: string;
}

export interface Approver {
  approvePatch(request: PatchApprovalRequest, signal: AbortSignal): Promise<PatchApprovalAnswer>;
  approveAction(request: ActionApprovalRequest, signal: AbortSignal): Promise<ActionApprovalAnswer>;
}

// ---- Tasks (test commands). VS Code runs them in a task terminal; the CLI in a child process group.

export interface TaskRunRequest {
  /** A shell command line, run by the platform shell. */
  command: string;
  /** Absolute working directory. */
  cwd: string;
  timeoutMs?: number;
  /** Output kept: the head and the tail, this many bytes in total. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Live output, for a UI; the full text is in the result. */
  onOutput?(chunk: string): void;
}

export interface TaskRunResult {
  /** null when killed by a signal (timeout, cancel). */
  exitCode: number | null;
  /** stdout and stderr interleaved as they came, head and tail kept when over maxOutputBytes. */
  output: string;
  truncated: boolean;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Protected paths the command created or changed, undone where possible (F4); for the audit trail. */
  protectedChanges?: readonly { path: string; change: string; action: string; movedTo?: string }[];
}

export interface TaskRunner {
  run(request: TaskRunRequest): Promise<TaskRunResult>;
}
