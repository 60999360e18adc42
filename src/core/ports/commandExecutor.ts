import type { TaskRunResult } from './taskRunner';

/** A command's outcome: the same shape as a test command's, and each stream apart where the executor keeps them (hooks read stderr alone). */
export type CommandExecution = TaskRunResult & { stdout?: string; stderr?: string };

/** Runs an approved command (the CLI and the VS Code task terminal: in a bubblewrap sandbox when it works). */
export interface CommandExecutor {
  /** Without a sandbox, auto mode asks before commands that run workspace code. */
  readonly sandboxed: boolean;
  run(request: {
    command: string;
    cwd: string;
    signal: AbortSignal;
    timeoutMs?: number;
    /** Written to the command's stdin, which is then closed (a hook's event as JSON); default: no stdin. */
    stdin?: string;
    /** Live output as it comes (a task terminal shows it); the result keeps the full, redacted text. */
    onOutput?(chunk: string): void;
  }): Promise<CommandExecution>;
}
