import type { TaskRunRequest, TaskRunResult } from './taskRunner';

/**
 * The one way a configured test (or check) command runs: the agent's run_tests, its after-edit and
 * baseline runs, its check commands, and the user's own Run Tests and run on save. It chooses where
 * the command runs (the sandboxed executor when there is one, the host's task runner otherwise), with
 * the workspace's command guard around it, and shows the run (VS Code: a task terminal named
 * "PatchPilot: <command>"). What the agent must ask first (a changed test definition, an untrusted
 * workspace without a sandbox) it asks through the tool context (tools/runTests.ts), from the facts
 * this runner gives: the user who runs their own tests has already chosen to.
 */
export interface TestCommandRunner {
  /**
   * Where commands run: true in the sandbox, false in an executor without one (workspace code runs
   * with the user's rights), undefined when the host has no command executor (only its task runner).
   */
  readonly sandboxed: boolean | undefined;
  /** False for a workspace the user does not trust: what its files choose to run asks when not sandboxed (tools/untrustedHostRun.ts). */
  readonly workspaceTrusted: boolean;
  /**
   * Why `command`'s definition (package.json scripts, Makefile, test configurations) is not as it
   * was when the agent started, undefined when it is; absent without a captured definition (the
   * agent then goes by the files its run wrote).
   */
  redefined?(command: string): { reason: string } | undefined;
  /** Runs the command where this runner chooses; the result is the one the model and the user read. */
  run(request: TaskRunRequest): Promise<TaskRunResult>;
}
