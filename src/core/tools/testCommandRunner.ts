import { runShown } from '../testRuns';
import type { CommandExecutor, TaskRunner, TestCommandRunner, TestOutputView } from '../ports';

/** What a test command runner is made of; the agent's and the user's own runs are made the same way (session/testCommands.ts). */
export interface TestCommandRunnerParts {
  /** Real path of the workspace root: a test definition is checked against it. */
  root: string;
  /** The command executor run_command uses (with the workspace's guard): test commands run in it when it sandboxes. */
  exec?: CommandExecutor;
  /** The host's task runner (CLI: a process group; VS Code: a task terminal), made with the same guard: runs them otherwise. */
  tasks: TaskRunner;
  /** Where a sandboxed run shows its live output (VS Code: the task terminals); the CLI has none. */
  testOutput?: TestOutputView;
  /** (attacks.commands) the test definitions as they were when the agent started (policy/command TestDefinitionGuard). */
  testGuard?: { check(argv: readonly string[], cwd: string): { reason: string } | undefined };
  /** False for a workspace the user does not trust. */
  workspaceTrusted?: boolean;
}

/**
 * The one place that chooses where a test command runs: the sandboxed executor when the host has one
 * that sandboxes (its process shown live in `testOutput`), the host's task runner otherwise. The
 * command runs the workspace's code, which the agent may have just written (a module the tests
 * require): in the sandbox when there is one, like any other command that runs code.
 */
export function createTestCommandRunner(parts: TestCommandRunnerParts): TestCommandRunner {
  const { root, exec, tasks, testOutput, testGuard } = parts;
  return {
    sandboxed: exec?.sandboxed,
    workspaceTrusted: parts.workspaceTrusted !== false,
    ...(testGuard ? { redefined: (command: string) => testGuard.check(command.trim().split(/\s+/), root) } : {}),
    async run(request) {
      if (!exec?.sandboxed) return tasks.run(request);
      const reveal = request.reveal ?? true;
      const view = testOutput && { open: (command: string, stop: () => void) => testOutput.open(command, stop, reveal) };
      return runShown(exec, view, { ...request, signal: request.signal ?? new AbortController().signal });
    },
  };
}
