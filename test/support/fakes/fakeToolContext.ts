// The one ToolContext of the tool tests: a real workspace folder (its files through NodeWorkspaceFs, as
// the CLI), a real NodeTaskRunner for test commands, an approver that answers from a script
// (ScriptedApprover, by default refusing), and the events the tools emit kept in `events`. The
// policies, the executor and the mode are options, as the orchestrator passes them (toolContext.ts).
import { DEFAULT_SETTINGS, type ApprovalMode, type PatchPilotSettings } from '../../../src/core/config/settings';
import { IgnoreRules } from '../../../src/core/git/ignoreRules';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { Approver, CommandExecutor, CommandPolicy, PathPolicy, TaskRunner, TestCommandRunner } from '../../../src/core/ports';
import { createToolAsk } from '../../../src/core/tools/ask';
import type { ToolCommands, ToolContext, ToolEvent, ToolServices, ToolWorkspace } from '../../../src/core/tools/types';
import { createTestCommandRunner, type TestCommandRunnerParts } from '../../../src/core/tools/testCommandRunner';
import { fakeHost } from './fakeHost';

/** What a test's context runs test commands with, besides its `exec` (tools/testCommandRunner.ts). */
export type TestCommandParts = Partial<Omit<TestCommandRunnerParts, 'root' | 'exec'>>;

/** The gate's parts (ask.ts): the approval mode, the approver and the policies; a path policy is made from the settings when not given. */
export interface FakeAskParts {
  mode?: ApprovalMode;
  approver?: Approver;
  commandPolicy?: CommandPolicy;
  pathPolicy?: PathPolicy;
}

/** Every part by its own name (the groups are the fake's to make): the gate's, the commands', the workspace's, the services', and the context's own. */
export type FakeToolContextOptions = FakeAskParts & { signal?: AbortSignal } & TestCommandParts &
  Partial<Omit<ToolCommands, 'tests'>> &
  Partial<ToolWorkspace> &
  ToolServices &
  Partial<Pick<ToolContext, 'fs' | 'emit' | 'state'>>;

export function settingsWith(patch: { tests?: Partial<PatchPilotSettings['tests']> } = {}): PatchPilotSettings {
  const s = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
  Object.assign(s.tests, patch.tests ?? {});
  return s;
}

export function fakeToolContext(root: string, options: FakeToolContextOptions = {}): ToolContext & { events: ToolEvent[] } {
  const events: ToolEvent[] = [];
  const host = fakeHost(root);
  const { mode, approver, commandPolicy, pathPolicy, settings = settingsWith(), signal = new AbortController().signal, ...rest } = options;
  const { tasks, testOutput, testGuard, workspaceTrusted, exec, detectedTests, ignore = new IgnoreRules(root), fs, emit: emitTo, state, ...services } = rest;
  const emit = emitTo ?? ((e: ToolEvent) => void events.push(e));
  const ask = createToolAsk({
    root,
    settings,
    ignore,
    mode: mode ?? 'ask',
    approver: approver ?? host.approver,
    signal,
    emit,
    ...(pathPolicy ? { pathPolicy } : {}),
    ...(commandPolicy ? { commandPolicy } : {}),
  });
  const ctx: ToolContext & { events: ToolEvent[] } = {
    root,
    signal,
    fs: fs ?? host.fs(root),
    emit,
    ask,
    run: {
      ...(exec ? { exec } : {}),
      // Read at each use: tests set `ctx.run.exec` after making the context.
      tests: testCommandsOver(() => ({ root, exec: ctx.run.exec }), { tasks: tasks ?? new NodeTaskRunner(), testOutput, testGuard, workspaceTrusted }),
      ...(detectedTests ? { detectedTests } : {}),
    },
    state: state ?? { changedFiles: new Set() },
    workspace: { settings, ignore },
    services,
    events,
  };
  return ctx;
}

/** The runner a host would make over the context's executor, read at each use. */
export function testCommandsOver(ctx: () => { root: string; exec?: CommandExecutor }, parts: TestCommandParts & { tasks: TaskRunner }): TestCommandRunner {
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
