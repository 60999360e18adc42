/**
 * Test commands in VS Code (`patchpilot.tests.commands`):
 *
 *   registerTestService(context, { settings?, log? }) -> TestService   once in activate()
 *   testService.runner: VsCodeTaskRunner   the TaskRunner for OrchestratorDeps.tasks
 *   testService.runAll(signal, why)        every command in a task terminal; status bar + Problems
 *   testService.onDidRunTests              every finished run (Run Tests and run on save); an agent
 *                                          session subscribes to hand run-on-save results to the model
 */
import * as vscode from 'vscode';
import path from 'node:path';
import type { PatchPilotSettings } from '../../../core/config/settings';
import { createCommandExecutor, createCommandGuard } from '../../../core/tools/policyAdapters';
import { formatTestSummary, summarizeTestOutput, type TestSummary } from '../../../core/tools/testSummary';
import type { TaskRunResult } from '../../../core/ports';
import { VsCodeTaskRunner } from './vsCodeTaskRunner';
import { RunOnSaveScheduler, runOnSaveMatcher } from './runOnSaveLogic';
import { locateFailures } from './testDiagnosticsLogic';
import { settingsFromVsCode } from './settingsFromVsCode';

export interface TestCommandReport {
  command: string;
  result: TaskRunResult;
  summary: TestSummary;
}

export interface TestRunReport {
  trigger: 'command' | 'save' | 'agent';
  /** Saved files that triggered it (run on save). */
  paths?: string[];
  passed: boolean;
  commands: TestCommandReport[];
  /** One text for the model, as run_tests words it. */
  text: string;
}

const RUN_ON_SAVE_DELAY_MS = 800;

export class TestService implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TestRunReport>();
  readonly onDidRunTests = this.emitter.event;
  private readonly status = vscode.window.createStatusBarItem('patchpilot.tests', vscode.StatusBarAlignment.Left, 50);
  private readonly problems = vscode.languages.createDiagnosticCollection('PatchPilot tests');
  private scheduler?: RunOnSaveScheduler<TestRunReport | undefined>;
  private readonly disposables: vscode.Disposable[] = [];
  private taskRunner?: VsCodeTaskRunner;

  constructor(
    private readonly root: string,
    private readonly settings: () => PatchPilotSettings = settingsFromVsCode,
    private readonly log: { info(m: string): void; warn(m: string): void } = { info: () => undefined, warn: () => undefined },
  ) {
    this.status.name = 'PatchPilot tests';
    this.status.command = 'patchpilot.runTests';
    this.configureRunOnSave();
    this.disposables.push(
      this.status,
      this.problems,
      this.emitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('patchpilot.policy') || e.affectsConfiguration('patchpilot.history')) this.taskRunner = undefined;
        if (e.affectsConfiguration('patchpilot.tests')) this.configureRunOnSave();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.configureRunOnSave()),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme !== 'file' || !vscode.workspace.isTrusted) return;
        const rel = path.relative(this.root, doc.uri.fsPath).split(path.sep).join('/');
        this.scheduler?.onSave(rel);
      }),
    );
  }

  /**
   * The TaskRunner for OrchestratorDeps.tasks. Built on first use: probing the sandbox spawns a
   * process, which activation should not wait for. The guard and environment come from the settings then.
   */
  get runner(): VsCodeTaskRunner {
    if (!this.taskRunner) {
      const s = this.settings();
      const executor = createCommandExecutor(this.root, { guard: createCommandGuard(this.root, s.policy, s.history.path), envAllow: s.policy.envAllow, homeAllow: s.policy.homeAllow, allowUnixSockets: s.sandbox.allowUnixSockets });
      const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === this.root) ?? vscode.TaskScope.Workspace;
      this.taskRunner = new VsCodeTaskRunner(executor, folder, this.log);
    }
    return this.taskRunner;
  }

  private configureRunOnSave(): void {
    this.scheduler?.dispose();
    this.scheduler = undefined;
    const setting = this.settings().tests.runOnSave;
    if (setting === 'off') return;
    this.scheduler = new RunOnSaveScheduler({ delayMs: RUN_ON_SAVE_DELAY_MS, matches: runOnSaveMatcher(setting), run: (signal, paths) => this.runAll(signal, 'save', paths) });
  }

  /** Runs every configured command in order; undefined when none are configured. */
  async runAll(signal: AbortSignal, trigger: TestRunReport['trigger'] = 'command', paths?: string[]): Promise<TestRunReport | undefined> {
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
      const result = await this.runner.run({ command, cwd: this.root, timeoutMs: s.tests.timeoutSeconds * 1000, signal });
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

  private report(trigger: TestRunReport['trigger'], commands: TestCommandReport[], paths?: string[]): TestRunReport {
    const passed = commands.every((c) => c.result.exitCode === 0);
    const parts = commands.map((c) => {
      const summary = formatTestSummary(c.summary);
      const status = c.result.timedOut ? 'timed out' : `exit ${c.result.exitCode}`;
      return [`$ ${c.command}`, `${status} after ${(c.result.durationMs / 1000).toFixed(1)} s`, summary, c.result.exitCode !== 0 ? `--- output (tail) ---\n${c.result.output.slice(-4000)}` : ''].filter(Boolean).join('\n');
    });
    const why = trigger === 'save' ? ` (run on save of ${paths?.join(', ')})` : '';
    return { trigger, paths, passed, commands, text: `${passed ? 'tests passed' : 'tests FAILED'}${why}\n\n${parts.join('\n\n')}` };
  }

  private show(report: TestRunReport): void {
    const failed = report.commands.reduce((n, c) => n + (c.summary.failed ?? (c.result.exitCode === 0 ? 0 : 1)), 0);
    this.status.text = report.passed ? '$(pass) PatchPilot: tests passed' : `$(error) PatchPilot: ${failed} failed`;
    this.status.tooltip = report.commands.map((c) => `${c.command}: exit ${c.result.exitCode}`).join('\n');
    this.status.backgroundColor = report.passed ? undefined : new vscode.ThemeColor('statusBarItem.errorBackground');
    this.problems.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const c of report.commands) {
      for (const p of locateFailures(c.result.output, c.summary, this.root)) {
        const d = new vscode.Diagnostic(new vscode.Range(p.line - 1, Math.max(0, p.column - 1), p.line - 1, Number.MAX_SAFE_INTEGER), p.message, vscode.DiagnosticSeverity.Error);
        d.source = `PatchPilot: ${c.command}`;
        byFile.set(p.path, [...(byFile.get(p.path) ?? []), d]);
      }
    }
    for (const [rel, diags] of byFile) this.problems.set(vscode.Uri.file(path.join(this.root, rel)), diags);
  }

  dispose(): void {
    this.scheduler?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

let service: TestService | undefined;

/** Creates the window's TestService (first workspace folder); later calls return the same one. */
export function registerTestService(context: vscode.ExtensionContext, options: { settings?: () => PatchPilotSettings; log?: { info(m: string): void; warn(m: string): void } } = {}): TestService | undefined {
  if (service) return service;
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) return undefined;
  service = new TestService(root, options.settings, options.log);
  context.subscriptions.push(service, { dispose: () => (service = undefined) });
  return service;
}

export function testService(): TestService | undefined {
  return service;
}
