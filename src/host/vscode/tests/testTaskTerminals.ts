import * as vscode from 'vscode';
import type { TestOutputSink, TestOutputView } from '../../../core/ports';
import { errorMessage } from '../../../core/base';
import { TestRunTerminal } from './testTerminalLogic';

/** The task type declared in package.json (taskDefinitions). */
export const TASK_TYPE = 'patchpilot';
/** The command the chat's "Show Output" runs (not in the palette: it needs the test command). */
export const SHOW_TEST_OUTPUT_COMMAND = 'patchpilot.tests.showOutput';

/** A test run's task definition (package.json taskDefinitions): `run` makes each run a task of its own (see TestTaskTerminals). */
interface TestTaskDefinition extends vscode.TaskDefinition {
  type: typeof TASK_TYPE;
  command: string;
  run: number;
}

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
 *
 * Every run is a task of its own: its definition carries the window's run number. VS Code names an
 * extension's task by its definition, and its extension host keeps a CustomExecution's callback by
 * that name; a second run of a command, named like the first, found the first's entry there and was
 * not marked as starting, so another task ending meanwhile (the baseline's, started with the chat
 * run) dropped its callback: its terminal opened with no pseudoterminal, the task's header alone.
 * A run of its own is also never given an earlier run's terminal (TaskPanelKind.New).
 *
 * Only PatchPilot's own terminals are closed or revealed, known by identity (the Terminal objects its
 * tasks opened), never by name alone: a terminal of the user's named like the command is left alone.
 */
export class TestTaskTerminals implements TestOutputView, vscode.Disposable {
  private readonly disposables: vscode.Disposable[];
  /** Runs still going, by terminal name: an ended run's terminal may give way, a running one never. */
  private readonly running = new Map<string, number>();
  /** The terminals this window's test tasks opened, oldest first (dropped when closed). */
  private readonly own = new Set<vscode.Terminal>();
  /**
   * Tasks asked to start whose execution has not begun yet, by name: a terminal of that name that opens
   * meanwhile is theirs. VS Code opens a task's terminal before it calls the CustomExecution back, so
   * the callback ends the wait. Each run opens a new terminal (TaskPanelKind.New), so each is claimed.
   */
  private readonly starting: { name: string }[] = [];
  /** Runs started in this window: the next run's number in its task's definition. */
  private runs = 0;

  constructor(
    private readonly folder: () => vscode.WorkspaceFolder | vscode.TaskScope,
    private readonly log: { warn(m: string): void },
  ) {
    this.disposables = [
      vscode.commands.registerCommand(SHOW_TEST_OUTPUT_COMMAND, (command: unknown) => this.reveal(command)),
      // VS Code links no task execution to its terminal in the API: the terminal that opens, by the
      // task's name, while one of our tasks of that name starts is that task's (see starting).
      vscode.window.onDidOpenTerminal((t) => this.claim(t)),
      vscode.window.onDidCloseTerminal((t) => this.own.delete(t)),
    ];
  }

  private claim(terminal: vscode.Terminal): void {
    const run = this.starting.find((r) => r.name === terminal.name);
    if (!run) return;
    this.started(run);
    this.own.add(terminal);
  }

  /** The task's terminal opened (or its execution began, or it could not start): it waits no more. */
  private started(run: { name: string }): void {
    const i = this.starting.indexOf(run);
    if (i >= 0) this.starting.splice(i, 1);
  }

  /** This window's test terminals of `name`, oldest first (the user's own, named alike, are not among them). */
  ownTerminals(name: string): vscode.Terminal[] {
    return [...this.own].filter((t) => t.name === name);
  }

  /**
   * Shown in the panel (without taking the focus) as they start: the agent's runs and Run Tests;
   * `reveal` false: the terminal is created but the panel not brought up (run on save).
   */
  open(command: string, stop: () => void, reveal = true): TestOutputSink {
    const name = testTaskName(command);
    if (!this.running.get(name)) for (const ended of this.ownTerminals(name)) ended.dispose();
    this.running.set(name, (this.running.get(name) ?? 0) + 1);
    const terminal = new TestRunTerminal(command, stop);
    const run = { name };
    const execution = new vscode.CustomExecution(async () => {
      this.started(run);
      return terminal;
    });
    const definition: TestTaskDefinition = { type: TASK_TYPE, command, run: ++this.runs };
    const task = new vscode.Task(definition, this.folder(), name, TASK_SOURCE, execution);
    task.group = vscode.TaskGroup.Test;
    task.presentationOptions = {
      reveal: reveal ? vscode.TaskRevealKind.Always : vscode.TaskRevealKind.Silent,
      focus: false,
      panel: vscode.TaskPanelKind.New,
      clear: true,
      showReuseMessage: false,
      close: false,
    };
    // The command already runs; a window where tasks cannot start (no folder) shows nothing, and the run goes on.
    this.starting.push(run);
    vscode.tasks.executeTask(task).then(undefined, (e: unknown) => {
      this.started(run);
      this.log.warn(`the test task "${command}" could not start: ${errorMessage(e)}`);
    });
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
    const terminal = this.ownTerminals(name).at(-1);
    if (!terminal) {
      void vscode.window.showInformationMessage(`The terminal of "${command}" was closed; the run is kept in PatchPilot: Show History.`);
      return false;
    }
    terminal.show(false);
    return true;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
