import type { TaskRunResult } from './taskRunner';

/** A command's outcome: the same shape as a test command's. */
export type CommandExecution = TaskRunResult;

/** Runs an approved command (the CLI and the VS Code task terminal: in a bubblewrap sandbox when it works). */
export interface CommandExecutor {
  /** Without a sandbox, auto mode asks before commands that run workspace code. */
  readonly sandboxed: boolean;
  run(request: {
    command: string;
    cwd: string;
    signal: AbortSignal;
    timeoutMs?: number;
    /** Live output as it comes (a task terminal shows it); the result keeps the full, redacted text. */
    onOutput?(chunk: string): void;
  }): Promise<CommandExecution>;
}
