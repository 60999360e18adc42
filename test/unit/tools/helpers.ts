// Shared fixtures for the tool tests: a real temp workspace, a real NodeTaskRunner, and an Approver
// that answers from a script and records what it was asked.
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DEFAULT_SETTINGS, type ApprovalMode, type PatchPilotSettings } from '../../../src/core/config/settings';
import { IgnoreRules } from '../../../src/core/git/ignoreRules';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { Approver, TaskRunner, TestCommandRunner } from '../../../src/core/ports';
import { ScriptedApprover } from '../../support/fakes';
import type { ToolContext, ToolEvent } from '../../../src/core/tools/types';
import { createTestCommandRunner, type TestCommandRunnerParts } from '../../../src/core/tools/testCommandRunner';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';

export function tempWorkspace(files: Record<string, string> = {}): { root: string; cleanup(): void } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'pp-tools-')));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function gitInit(root: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test');
  git('config', 'user.email', 'test@example.invalid');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial', '--allow-empty');
}

// The approver fake lives with the other ports' fakes; the tool tests name it from here as they always did.
export { ScriptedApprover };

export function settingsWith(patch: { tests?: Partial<PatchPilotSettings['tests']> } = {}): PatchPilotSettings {
  const s = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
  Object.assign(s.tests, patch.tests ?? {});
  return s;
}

/** What a test's context runs test commands with, besides its `exec` (tools/testCommandRunner.ts). */
export type TestCommandParts = Partial<Omit<TestCommandRunnerParts, 'root' | 'exec'>>;

export function makeContext(
  root: string,
  options: { mode?: ApprovalMode; approver?: Approver; settings?: PatchPilotSettings; signal?: AbortSignal } & TestCommandParts & Partial<ToolContext> = {},
): ToolContext & { events: ToolEvent[] } {
  const events: ToolEvent[] = [];
  const { mode, approver, settings, signal, tasks, testOutput, testGuard, workspaceTrusted, ...rest } = options;
  const ctx: ToolContext & { events: ToolEvent[] } = {
    root,
    settings: settings ?? settingsWith(),
    mode: mode ?? 'ask',
    signal: signal ?? new AbortController().signal,
    approver: approver ?? new ScriptedApprover(),
    // Read at each use: tests set `ctx.exec` after making the context.
    testCommands: testCommandsOver(() => ctx, { tasks: tasks ?? new NodeTaskRunner(), testOutput, testGuard, workspaceTrusted }),
    ignore: new IgnoreRules(root),
    run: { changedFiles: new Set() },
    fs: new NodeWorkspaceFs(root),
    emit: (e) => events.push(e),
    events,
    ...rest,
  };
  return ctx;
}

/** The runner a host would make over the context's executor, read at each use. */
export function testCommandsOver(ctx: () => Pick<ToolContext, 'root' | 'exec'>, parts: TestCommandParts & { tasks: TaskRunner }): TestCommandRunner {
  const now = () => createTestCommandRunner({ ...parts, root: ctx().root, exec: ctx().exec });
  return {
    get sandboxed() {
      return now().sandboxed;
    },
    workspaceTrusted: parts.workspaceTrusted !== false,
    ...(parts.testGuard ? { redefined: (command: string) => now().redefined?.(command) } : {}),
    run: (request) => now().run(request),
  };
}
