import type { CommandExecutor, TaskRunner, TaskRunRequest, TaskRunResult } from '../../../core/ports';
import { errorMessage } from '../../../core/base';
import { runShown } from '../../../core/testRuns';
import type { TestTaskTerminals } from './testTaskTerminals';

/**
 * TaskRunner in VS Code: each test command runs in the core's command executor (runCommand with the
 * CLI's guard and environment allowlist, sandboxed when bubblewrap works) and its output streams into
 * a task terminal named for the command (TestTaskTerminals), the same way the agent's sandboxed runs
 * do (runShown). The redacted, capped text comes back to the caller; the terminal shows the raw
 * stream and closes with the executor's exit code, so onDidEndTaskProcess reports it too.
 */
export class VsCodeTaskRunner implements TaskRunner {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly terminals: TestTaskTerminals,
  ) {}

  /** `request.reveal` false: the terminal is made but the panel not brought up (run on save). */
  async run(request: TaskRunRequest): Promise<TaskRunResult> {
    const reveal = request.reveal ?? true;
    const view = { open: (command: string, stop: () => void) => this.terminals.open(command, stop, reveal) };
    try {
      return await runShown(this.executor, view, { ...request, signal: request.signal ?? new AbortController().signal });
    } catch (e) {
      // The caller gets a result it can report, as from a command that failed.
      return { exitCode: null, output: errorMessage(e), truncated: false, durationMs: 0, timedOut: false, cancelled: false };
    }
  }
}
