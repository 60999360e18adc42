/**
 * The test command runner of a workspace, made the same way for the agent (createAgent) and for the
 * user's own test runs (VS Code's Run Tests and run on save): the same guard around the command
 * (ignored and denied paths hidden, protected paths kept, the files MCP servers', hooks' and the
 * model program's launches name among them), the same environment, the same choice of the sandbox
 * or the host's task runner (tools/testCommandRunner.ts).
 */
import type { PatchPilotSettings } from '../config';
import type { CommandExecutor, Host, TaskRunner, TestCommandRunner } from '../ports';
import { createIgnoreFilter, type IgnoreFilter, type ProtectedGlob } from '../policy/path';
import type { GuardBaseline } from '../sandbox/guardBaseline';
import { createCommandExecutor, createCommandGuard } from '../tools/policyAdapters';
import { createTestCommandRunner, type TestCommandRunnerParts } from '../tools/testCommandRunner';
import { mcpProtectedGlobs } from '../mcp';
import { hookProtectedGlobs, modelProgramProtectedGlobs } from '../approvals';

/** What a host lends for running test commands: its task runner, and where a sandboxed run shows its output (VS Code's task terminals). */
export type TestCommandHost = Pick<Host, 'tasks' | 'testOutput'>;

/** The workspace files a launch the user approved names (MCP servers, hooks, the model program): protected while configured (policy/launch). */
export function launchProtectedGlobs(root: string, settings: PatchPilotSettings): ProtectedGlob[] {
  return [
    ...mcpProtectedGlobs(root, settings.mcp.servers),
    ...hookProtectedGlobs(root, settings.hooks),
    ...modelProgramProtectedGlobs(root, settings.llm.command),
  ];
}

/** The guard around every command of the workspace (run_command, hooks, test commands). */
export function workspaceCommandGuard(
  root: string,
  settings: PatchPilotSettings,
  o: { ignore?: IgnoreFilter; launchProtected?: readonly ProtectedGlob[]; baseline?: GuardBaseline } = {},
): ReturnType<typeof createCommandGuard> & { baseline?: GuardBaseline } {
  const guard = createCommandGuard(
    root,
    settings.policy,
    settings.history.path,
    o.ignore ?? createIgnoreFilter(root),
    o.launchProtected ?? launchProtectedGlobs(root, settings),
  );
  return o.baseline ? { ...guard, baseline: o.baseline } : guard;
}

/** run_command's executor: the workspace's guard, the environment allowlist, the sandbox when bubblewrap works. */
export function workspaceExecutor(
  root: string,
  settings: PatchPilotSettings,
  guard: ReturnType<typeof workspaceCommandGuard>,
  readOnlyPaths: readonly string[] = [],
): CommandExecutor {
  const { envAllow, homeAllow } = settings.policy;
  return createCommandExecutor(root, { guard, envAllow, homeAllow, readOnlyPaths: [...readOnlyPaths], allowUnixSockets: settings.sandbox.allowUnixSockets });
}

/** The host's task runner, made with the guard and environment of `exec`, and the runner over both. */
export function hostTestCommands(
  root: string,
  settings: PatchPilotSettings,
  host: TestCommandHost,
  o: { exec: CommandExecutor; guard: ReturnType<typeof workspaceCommandGuard> } & Pick<TestCommandRunnerParts, 'testGuard' | 'workspaceTrusted'>,
): { tasks: TaskRunner; testCommands: TestCommandRunner } {
  const { envAllow, homeAllow } = settings.policy;
  const tasks = host.tasks({ root, envAllow, homeAllow, allowUnixSockets: settings.sandbox.allowUnixSockets, guard: { root, ...o.guard } });
  const parts = { root, exec: o.exec, tasks, testOutput: host.testOutput, testGuard: o.testGuard, workspaceTrusted: o.workspaceTrusted };
  return { tasks, testCommands: createTestCommandRunner(parts) };
}

/**
 * The user's own test runs (Run Tests, run on save): the runner and the guard the agent's runs use,
 * without the agent's questions (the user chose to run them).
 */
export function createUserTestCommands(root: string, settings: PatchPilotSettings, host: TestCommandHost): TestCommandRunner {
  const guard = workspaceCommandGuard(root, settings);
  return hostTestCommands(root, settings, host, { exec: workspaceExecutor(root, settings, guard), guard }).testCommands;
}
