/** Tasks (test commands). VS Code runs them in a task terminal; the CLI in a child process group. */
import type { GuardOptions } from '../sandbox/protectedGuard';

export interface TaskRunRequest {
  /** A shell command line, run by the platform shell. */
  command: string;
  /** Absolute working directory. */
  cwd: string;
  timeoutMs?: number;
  /** Output held in memory; past it a runner keeps the rest in a temporary file and returns the whole output (sandbox/cappedOutput.ts). */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Live output, for a UI; the full text is in the result. */
  onOutput?(chunk: string): void;
  /** Bring the run's output up (VS Code: reveal its task terminal); false for a run on save. Default: true. */
  reveal?: boolean;
}

export interface TaskRunResult {
  /** null when killed by a signal (timeout, cancel). */
  exitCode: number | null;
  /** stdout and stderr interleaved as they came, whole (past 64 MiB: the first 64 MiB, a note and the end). */
  output: string;
  truncated: boolean;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Protected paths the command created or changed, undone where possible (attacks.guard); for the audit trail. */
  protectedChanges?: readonly { path: string; change: string; action: string; movedTo?: string }[];
}

export interface TaskRunner {
  run(request: TaskRunRequest): Promise<TaskRunResult>;
}

/** The host's test runner (a child process group in the CLI, a task terminal in VS Code), given the same guard as run_command. */
export type TaskRunnerFactory = (o: {
  root: string;
  envAllow: readonly string[];
  homeAllow: readonly string[];
  allowUnixSockets: readonly string[];
  guard: Omit<GuardOptions, 'keepBytes'>;
}) => TaskRunner;
