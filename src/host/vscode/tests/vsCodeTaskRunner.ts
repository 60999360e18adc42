import * as vscode from 'vscode';
import type { CommandExecutor, TaskRunner, TaskRunRequest, TaskRunResult } from '../../../core/ports';
import { errorMessage } from '../../../core/base';

/** The task type declared in package.json (taskDefinitions). */
export const TASK_TYPE = 'patchpilot';
const OPEN_TIMEOUT_MS = 15_000;

/**
 * TaskRunner in VS Code: each test command is a Task in a task terminal the user sees. A
 * ShellExecution would hide the output from us (task terminals expose no output API), so the task
 * is a CustomExecution whose pseudoterminal runs the core's sandboxed executor (runCommand with the
 * CLI's guard and environment allowlist): the output streams into the terminal and the redacted,
 * capped text comes back to the agent. The exit code is the executor's; the pseudoterminal closes
 * with it, so onDidEndTaskProcess reports the same code to other listeners.
 */
export class VsCodeTaskRunner implements TaskRunner {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly folder: vscode.WorkspaceFolder | vscode.TaskScope = vscode.TaskScope.Workspace,
    private readonly log: { info(m: string): void; warn(m: string): void } = { info: () => undefined, warn: () => undefined },
  ) {}

  run(request: TaskRunRequest): Promise<TaskRunResult> {
    return new Promise<TaskRunResult>((resolve) => {
      const write = new vscode.EventEmitter<string>();
      const close = new vscode.EventEmitter<number | void>();
      const stop = new AbortController();
      const onOuterAbort = () => stop.abort();
      request.signal?.addEventListener('abort', onOuterAbort, { once: true });
      let started = false;
      const finish = (r: TaskRunResult) => {
        request.signal?.removeEventListener('abort', onOuterAbort);
        resolve(r);
      };
      const execute = async (terminal: boolean) => {
        started = true;
        const toTerminal = (chunk: string) => {
          if (terminal) write.fire(chunk.replace(/\r?\n/g, '\r\n'));
          request.onOutput?.(chunk);
        };
        if (terminal) write.fire(`\x1b[2m$ ${request.command}\x1b[0m\r\n`);
        let result: TaskRunResult;
        try {
          result = await this.executor.run({
            command: request.command,
            cwd: request.cwd,
            signal: stop.signal,
            timeoutMs: request.timeoutMs,
            onOutput: toTerminal,
          });
        } catch (e) {
          const message = errorMessage(e);
          result = { exitCode: null, output: message, truncated: false, durationMs: 0, timedOut: false, cancelled: false };
          toTerminal(`\n${message}\n`);
        }
        const status = result.timedOut ? 'timed out' : result.cancelled ? 'cancelled' : `exit code ${result.exitCode}`;
        if (terminal) {
          write.fire(`\r\n\x1b[2m${status} after ${(result.durationMs / 1000).toFixed(1)} s\x1b[0m\r\n`);
          close.fire(result.exitCode ?? 1);
        }
        finish(result);
      };
      const pty: vscode.Pseudoterminal = {
        onDidWrite: write.event,
        onDidClose: close.event,
        open: () => void execute(true),
        // The user closed the terminal or pressed the task's stop: end the command like a cancel.
        close: () => stop.abort(),
      };
      const task = new vscode.Task(
        { type: TASK_TYPE, command: request.command },
        this.folder,
        request.command,
        'PatchPilot tests',
        new vscode.CustomExecution(async () => pty),
      );
      task.group = vscode.TaskGroup.Test;
      task.presentationOptions = { reveal: vscode.TaskRevealKind.Silent, panel: vscode.TaskPanelKind.Dedicated, clear: true, showReuseMessage: false };
      vscode.tasks.executeTask(task).then(
        () => undefined,
        (e: unknown) => {
          // Tasks cannot run (a restricted window, no folder): run headless so the agent still gets its result.
          this.log.warn(`the test task could not start (${errorMessage(e)}); running it without a terminal`);
          if (!started) void execute(false);
        },
      );
      setTimeout(() => {
        if (!started) {
          this.log.warn(`the test task terminal did not open within ${OPEN_TIMEOUT_MS / 1000} s; running "${request.command}" without a terminal`);
          void execute(false);
        }
      }, OPEN_TIMEOUT_MS).unref?.();
    });
  }
}
