/**
 * Test commands in VS Code (`patchpilot.tests.commands`):
 *
 *   createTestService(context, settings, log) -> TestService   once in activate()
 *   testService.runner: TestCommandRunner  Run Tests and run on save: the core's runner and guard, as the agent's runs
 *   testService.runnerFor(o)               the agent's TaskRunnerFactory: the guard createAgent built
 *   testService.runAll(signal, why)        every command in a task terminal; status bar + Problems
 *   testService.terminals                  the task terminals of every test run, the agent's sandboxed ones too
 *   testService.onDidRunTests              every finished run (Run Tests and run on save); an agent
 *                                          session subscribes to hand run-on-save results to the model
 * Run on save reacts to the user's saves only: PatchPilot's own (OwnSaves) are skipped.
 */
import * as vscode from 'vscode';
import path from 'node:path';
import type { PatchPilotSettings } from '../../../core/config';
import { createCommandExecutor } from '../../../core/tools';
import { createUserTestCommands } from '../../../core/session';
import { errorMessage } from '../../../core/base';
import { describeTestCommand, summarizeTestOutput, type TestSummary } from '../../../core/testRuns';
import type { TaskRunnerFactory, TaskRunResult, TestCommandRunner } from '../../../core/ports';
import { VsCodeTaskRunner } from './vsCodeTaskRunner';
import { TestTaskTerminals } from './testTaskTerminals';
import { RunOnSaveScheduler, runOnSaveMatcher } from './runOnSaveLogic';
import { locateFailures } from './testDiagnosticsLogic';
import { addAll, DisposableStore } from '../../../core/base';
import type { OwnSaves } from '../workspace/ownSaves';

export interface TestCommandReport {
  command: string;
  result: TaskRunResult;
  summary: TestSummary;
}

export interface TriggeredTestRun {
  trigger: 'command' | 'save' | 'agent';
  /** Saved files that triggered it (run on save). */
  paths?: string[];
  passed: boolean;
  commands: TestCommandReport[];
  /** One text for the model, as run_tests words it. */
  text: string;
}

const RUN_ON_SAVE_DELAY_MS = 800;
/** The settings the user's runner is made from (the guard, the environment, the sandbox, the launches it protects). */
const RUNNER_SETTINGS = ['patchpilot.policy', 'patchpilot.history', 'patchpilot.sandbox', 'patchpilot.mcp', 'patchpilot.hooks', 'patchpilot.llm.command'];

export class TestService implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TriggeredTestRun>();
  readonly onDidRunTests = this.emitter.event;
  private readonly status = vscode.window.createStatusBarItem('patchpilot.tests', vscode.StatusBarAlignment.Left, 50);
  private readonly problems = vscode.languages.createDiagnosticCollection('PatchPilot tests');
  private scheduler?: RunOnSaveScheduler<TriggeredTestRun | undefined>;
  private readonly disposables = new DisposableStore();
  private testRunner?: TestCommandRunner;
  /** Every test run's task terminal: Run Tests, run on save, and the agent's runs (its testOutput). */
  readonly terminals: TestTaskTerminals;

  constructor(
    private readonly root: string,
    /** The core's one resolver (HostConfig.settingsNow): user and workspace lists add up, trust applied. */
    private readonly settings: () => PatchPilotSettings,
    private readonly log: { info(m: string): void; warn(m: string): void } = { info: () => undefined, warn: () => undefined },
    /** PatchPilot's own saves (a patch written through VsCodeWorkspaceFs): they never trigger a run. */
    private readonly ownSaves?: OwnSaves,
  ) {
    this.terminals = new TestTaskTerminals(() => this.folder(), log);
    this.status.name = 'PatchPilot tests';
    this.status.command = 'patchpilot.runTests';
    this.configureRunOnSave();
    addAll(
      this.disposables,
      this.status,
      this.problems,
      this.terminals,
      this.emitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (RUNNER_SETTINGS.some((key) => e.affectsConfiguration(key))) this.testRunner = undefined;
        if (e.affectsConfiguration('patchpilot.tests')) this.configureRunOnSave();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.configureRunOnSave()),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (this.ownSaves?.take(doc.uri.toString())) return; // the agent's write, which it tests itself
        if (doc.uri.scheme !== 'file' || !vscode.workspace.isTrusted) return;
        const rel = path.relative(this.root, doc.uri.fsPath).split(path.sep).join('/');
        this.scheduler?.onSave(rel);
      }),
    );
  }

  /**
   * The runner of Run Tests and run on save: the core's, made as the agent's (the same guard, the
   * sandbox or a task terminal). Built on first use: probing the sandbox spawns a process, which
   * activation should not wait for. The guard and environment come from the settings then.
   */
  get runner(): TestCommandRunner {
    this.testRunner ??= createUserTestCommands(this.root, this.settings(), { tasks: this.runnerFor, testOutput: this.terminals });
    return this.testRunner;
  }

  /** The agent's test runs: a task terminal with exactly the guard and environment createAgent resolved for run_command. */
  readonly runnerFor = ({ guard, envAllow, homeAllow, allowUnixSockets }: Parameters<TaskRunnerFactory>[0]): VsCodeTaskRunner => {
    const { root: _root, ...commandGuard } = guard;
    const executor = createCommandExecutor(this.root, { guard: commandGuard, envAllow, homeAllow, allowUnixSockets });
    return new VsCodeTaskRunner(executor, this.terminals);
  };

  private folder(): vscode.WorkspaceFolder | vscode.TaskScope {
    return vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === this.root) ?? vscode.TaskScope.Workspace;
  }

  private configureRunOnSave(): void {
    this.scheduler?.dispose();
    this.scheduler = undefined;
    let setting: PatchPilotSettings['tests']['runOnSave'];
    try {
      setting = this.settings().tests.runOnSave;
    } catch (err) {
      this.log.warn(`tests do not run on save: ${errorMessage(err)}`);
      return;
    }
    if (setting === 'off') return;
    this.scheduler = new RunOnSaveScheduler({
      delayMs: RUN_ON_SAVE_DELAY_MS,
      matches: runOnSaveMatcher(setting),
      run: (signal, paths) => this.runAll(signal, 'save', paths),
    });
  }

  /** Runs every configured command in order; undefined when none are configured. */
  async runAll(signal: AbortSignal, trigger: TriggeredTestRun['trigger'] = 'command', paths?: string[]): Promise<TriggeredTestRun | undefined> {
    const s = this.settings();
    if (s.tests.commands.length === 0) {
      this.status.text = '$(beaker) no test commands';
      this.status.tooltip = 'Set patchpilot.tests.commands to run tests here.';
      this.status.show();
      return undefined;
    }
    this.status.text = '$(sync~spin) PatchPilot: testing';
    this.status.tooltip = s.tests.commands.join('\n');
    this.status.show();
    const commands: TestCommandReport[] = [];
    for (const command of s.tests.commands) {
      if (signal.aborted) break;
      // A run on save makes its terminal without bringing up the panel: saves come often.
      const result = await this.runOne({ command, cwd: this.root, timeoutMs: s.tests.timeoutSeconds * 1000, signal, reveal: trigger !== 'save' });
      commands.push({ command, result, summary: summarizeTestOutput(result.output) });
    }
    if (signal.aborted) {
      this.status.text = '$(circle-slash) PatchPilot: tests cancelled';
      return undefined;
    }
    const report = this.report(trigger, commands, paths);
    this.show(report);
    this.emitter.fire(report);
    return report;
  }

  /** The caller gets a result it can report, as from a command that failed, when the command could not run. */
  private async runOne(request: Parameters<TestCommandRunner['run']>[0]): Promise<TaskRunResult> {
    try {
      return await this.runner.run(request);
    } catch (e) {
      return { exitCode: null, output: errorMessage(e), truncated: false, durationMs: 0, timedOut: false, cancelled: false };
    }
  }

  private report(trigger: TriggeredTestRun['trigger'], commands: TestCommandReport[], paths?: string[]): TriggeredTestRun {
    const passed = commands.every((c) => c.result.exitCode === 0);
    const parts = commands.map((c) =>
      describeTestCommand({
        command: c.command,
        exitCode: c.result.exitCode,
        durationMs: c.result.durationMs,
        timedOut: c.result.timedOut,
        output: c.result.output,
        summary: c.summary,
      }),
    );
    const why = trigger === 'save' ? ` (run on save of ${paths?.join(', ')})` : '';
    return { trigger, paths, passed, commands, text: `${passed ? 'tests passed' : 'tests FAILED'}${why}\n\n${parts.join('\n\n')}` };
  }

  private show(report: TriggeredTestRun): void {
    const failed = report.commands.reduce((n, c) => n + (c.summary.failed ?? (c.result.exitCode === 0 ? 0 : 1)), 0);
    this.status.text = report.passed ? '$(pass) PatchPilot: tests passed' : `$(error) PatchPilot: ${failed} failed`;
    this.status.tooltip = report.commands.map((c) => `${c.command}: exit ${c.result.exitCode}`).join('\n');
    this.status.backgroundColor = report.passed ? undefined : new vscode.ThemeColor('statusBarItem.errorBackground');
    this.problems.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const c of report.commands) {
      for (const p of locateFailures(c.result.output, c.summary, this.root)) {
        const d = new vscode.Diagnostic(
          new vscode.Range(p.line - 1, Math.max(0, p.column - 1), p.line - 1, Number.MAX_SAFE_INTEGER),
          p.message,
          vscode.DiagnosticSeverity.Error,
        );
        d.source = `PatchPilot: ${c.command}`;
        byFile.set(p.path, [...(byFile.get(p.path) ?? []), d]);
      }
    }
    for (const [rel, diags] of byFile) this.problems.set(vscode.Uri.file(path.join(this.root, rel)), diags);
  }

  dispose(): void {
    this.scheduler?.dispose();
    this.disposables.dispose();
  }
}

/** The window's TestService (first workspace folder), or undefined without a folder. */
export function createTestService(
  context: vscode.ExtensionContext,
  settings: () => PatchPilotSettings,
  log: { info(m: string): void; warn(m: string): void },
  ownSaves?: OwnSaves,
): TestService | undefined {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) return undefined;
  const service = new TestService(root, settings, log, ownSaves);
  context.subscriptions.push(service);
  return service;
}
