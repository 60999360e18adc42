import * as vscode from 'vscode';
import type { TestOutputSink, TestOutputView } from '../../../core/ports';
import { errorMessage } from '../../../core/base';
import { TestRunTerminal } from './testTerminalLogic';

/** The task type declared in package.json (taskDefinitions). */
export const TASK_TYPE = 'patchpilot';
/** The command the chat's "Show Output" runs (not in the palette: it needs the test command). */
export const SHOW_TEST_OUTPUT_COMMAND = 'patchpilot.tests.showOutput';

/** The task's source: VS Code puts it before the name in the terminal's first line ("Executing task: PatchPilot: npm test"). */
export const TASK_SOURCE = 'PatchPilot';

/**
 * A test run's task and terminal name: what it runs, and nothing more. VS Code already writes the
 * source before it in the terminal's first line; a name that carried "PatchPilot: " too would read
 * "Executing task: PatchPilot: PatchPilot: npm test" there.
 */
export function testTaskName(command: string): string {
  return command;
}

/**
 * Test runs as VS Code tasks: each run is a Task (group Test) whose CustomExecution terminal shows the
 * output of the process the core's executor runs (TestRunTerminal), named for the command. The
 * terminal stays after the run with its exit status until the next run of the same command replaces
 * it (one terminal per command, not one per run). "Show Output" reveals the newest terminal of a command.
 */
export class TestTaskTerminals implements TestOutputView, vscode.Disposable {
  private readonly registration: vscode.Disposable;
  /** Runs still going, by terminal name: an ended run's terminal may give way, a running one never. */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly folder: () => vscode.WorkspaceFolder | vscode.TaskScope,
    private readonly log: { warn(m: string): void },
  ) {
    this.registration = vscode.commands.registerCommand(SHOW_TEST_OUTPUT_COMMAND, (command: unknown) => this.reveal(command));
  }

  /**
   * Shown in the panel (without taking the focus) as they start: the agent's runs and Run Tests;
   * `reveal` false: the terminal is created but the panel not brought up (run on save).
   */
  open(command: string, stop: () => void, reveal = true): TestOutputSink {
    const name = testTaskName(command);
    if (!this.running.get(name)) for (const ended of vscode.window.terminals.filter((t) => t.name === name)) ended.dispose();
    this.running.set(name, (this.running.get(name) ?? 0) + 1);
    const terminal = new TestRunTerminal(command, stop);
    const task = new vscode.Task({ type: TASK_TYPE, command }, this.folder(), name, TASK_SOURCE, new vscode.CustomExecution(async () => terminal));
    task.group = vscode.TaskGroup.Test;
    task.presentationOptions = {
      reveal: reveal ? vscode.TaskRevealKind.Always : vscode.TaskRevealKind.Silent,
      focus: false,
      panel: vscode.TaskPanelKind.Dedicated,
      clear: true,
      showReuseMessage: false,
      close: false,
    };
    // The command already runs; a window where tasks cannot start (no folder) shows nothing, and the run goes on.
    vscode.tasks.executeTask(task).then(undefined, (e: unknown) => this.log.warn(`the test task "${command}" could not start: ${errorMessage(e)}`));
    return {
      write: (chunk) => terminal.write(chunk),
      end: (status) => {
        this.running.set(name, (this.running.get(name) ?? 1) - 1);
        terminal.end(status);
      },
    };
  }

  /** Brings up the newest terminal of `command`; says so when the user has closed it. */
  async reveal(command: unknown): Promise<boolean> {
    if (typeof command !== 'string' || !command) throw new Error('patchpilot.tests.showOutput needs the test command to show');
    const name = testTaskName(command);
    const terminal = [...vscode.window.terminals].reverse().find((t) => t.name === name);
    if (!terminal) {
      void vscode.window.showInformationMessage(`The terminal of "${command}" was closed; the run is kept in PatchPilot: Show History.`);
      return false;
    }
    terminal.show(false);
    return true;
  }

  dispose(): void {
    this.registration.dispose();
  }
}
