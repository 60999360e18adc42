import { describeOrigin, type PatchPilotSettings, type ResolvedConfig, type SettingKey } from '../config';
import { openHistoryStore, prepareStateFolder, type HistoryStore } from '../history';
import { retentionOptions } from '../history/retention';
import { createChatModel } from '../llm';
import { PatchManager } from '../patch';
import { createCommandPolicy, TestDefinitionGuard, type LoadedCommandPolicy } from '../policy/command';
import { describeProtection, probeSandbox } from '../sandbox';
import { safeFetch } from '../web';
import { createIgnoreFilter, type IgnoreFilter, type ProtectedGlob } from '../policy/path';
import type { OrchestratorDeps } from '../orchestrator';
import { createToolRegistry } from '../tools';
import { createPathPolicy } from '../tools/policyAdapters';
import { NodeWorkspaceFs } from '../workspace/nodeWorkspaceFs';
import type { Approver, ChatModel, DiagnosticsSource, Elicitor, Notifier, PatchEngine, TestOutputView, WorkspaceFs } from '../ports';
import { TokenCalibration } from '../context/tokenCounter';
import type { AgentEvent } from '../../protocol/agentEvents';
import { errorMessage } from '../base';
import type { McpManager } from '../mcp';
import { stateDirOf, wireCapabilities } from './capabilities';
import { modelProgramPreflight } from '../approvals';
import { defaultUserStateDir } from '../config/userState';
import { createChangeFeed, createCheckpointer } from './checkpointWiring';
import { createHookRunner } from './hookWiring';
import { GuardBaseline } from '../sandbox/guardBaseline';
import type { ChangeFeed } from '../fs/changeFeed';
import { restrictedWhen } from './restricted';
import { hostTestCommands, launchProtectedGlobs, workspaceCommandGuard, workspaceExecutor, type TaskRunnerFactory } from './testCommands';

export type { TaskRunnerFactory } from './testCommands';

export interface AgentOptions {
  root: string;
  config: ResolvedConfig;
  approver: Approver;
  notifier: Notifier;
  onEvent(e: AgentEvent): void;
  tasks: TaskRunnerFactory;
  /** Where the test commands the executor runs show their live output (VS Code: a task terminal); the CLI has none. */
  testOutput?: TestOutputView;
  /** The host's patch engine (VS Code: WorkspaceEdit and undo journal); default: the PatchManager on disk. */
  patches?: (root: string) => PatchEngine;
  /** The host's workspace files for the file tools (VS Code: unsaved buffers in, WorkspaceEdit out); default: NodeWorkspaceFs (confined, atomic). */
  fs?: (root: string) => WorkspaceFs;
  /**
   * Read and explain only (an untrusted workspace): approval mode plan, no command executor, no
   * test runs, no run_command tool. The host says why; the core makes sure (session/restricted.ts).
   */
  readOnly?: boolean;
  /** The host's already open history store (VS Code: one per window); the caller keeps and closes it. Default: open one for this wiring. */
  history?: HistoryStore;
  /** How the history store runs: a worker (the default; saving a big database must not stall the stream) or in-process. */
  historyMode?: 'worker' | 'in-process';
  /** An MCP manager the host keeps across wirings (reconfigured here); without one, one is made when servers are configured. */
  mcp?: McpManager;
  /** Per-user folder outside the workspace (the key that signs MCP approvals); default: defaultUserStateDir(). */
  userStateDir?: string;
  /** How the user approves an MCP server outside a run (the CLI: `patchpilot mcp approve NAME`). */
  mcpApproveHint?: (server: string) => string;
  /** How the user approves workspace hooks outside a run (the CLI: `patchpilot hooks approve`). */
  hooksApproveHint?: string;
  /** Who answers MCP servers' elicitation requests (the terminal, or a decline without one). */
  mcpElicitor?: Elicitor;
  /** The bundled skills folder: the extension's `skills/`, or the one next to the CLI bundle. */
  bundledSkillsDir?: string;
  /**
   * A model the host serves itself (VS Code's Language Model API for provider "vscode"); default:
   * the client for the settings' endpoint. The core never imports the host's API: it gets the model.
   */
  model?: ChatModel;
  /** The host's problems per file (VS Code's diagnostics); new ones in edited files go back with the edit. */
  diagnostics?: DiagnosticsSource;
  /** The detected test command the user has not answered yet (VS Code's offer): run_tests runs it when asked. */
  detectedTests?: OrchestratorDeps['detectedTests'];
}

export interface Agent {
  deps: OrchestratorDeps;
  history?: HistoryStore;
  /** The MCP servers (status for the host: `mcp.status()`, `mcp.onDidChangeStatus`). */
  mcp?: McpManager;
  /**
   * Ends this agent: its change feed and checkpoint watchers, the MCP servers it started (not a
   * host-kept manager) and the history it opened (not a store the host lent). Once; later calls
   * return the same promise. The shape of VS Code's Disposable, so a MutableDisposable can hold it.
   */
  dispose(): Promise<void>;
}

/**
 * Wires the core for a host: model client, patch engine, policies (command, path, network) with the
 * sandboxed executor, the history store in the workspace's state folder. The policy lists arrive
 * merged and already filtered by workspace trust (resolveSettings), so they are passed as one
 * trusted layer. The hosts differ only in the approver, the notifier, the event sink and the test runner.
 */
export async function createAgent(o: AgentOptions): Promise<Agent> {
  const settings: PatchPilotSettings = o.readOnly ? { ...o.config.settings, approval: { mode: 'plan' }, git: { autoCommit: false } } : o.config.settings;
  const policy = settings.policy;
  const safety = await wireSafety(o, settings);
  const { ignore, guard, mcpProtected } = safety;
  const history = o.history ?? (await openAgentHistory(o, settings));
  if (o.history && !o.readOnly) lentStateFolder(o, settings);
  const model = o.model ?? agentModel(o, settings);
  const web: OrchestratorDeps['web'] = (url, signal) =>
    safeFetch(url, { signal, settings: { fetchAllowHosts: policy.fetchAllowHosts, allowPrivateNetwork: policy.allowPrivateNetwork } });
  const capabilities = await wireCapabilities({
    root: o.root,
    config: o.config,
    settings,
    notifier: o.notifier,
    readOnly: o.readOnly,
    mcp: o.mcp,
    userStateDir: o.userStateDir,
    mcpApproveHint: o.mcpApproveHint,
    ...(o.mcpElicitor ? { mcpElicitor: o.mcpElicitor } : {}),
    guard: { root: o.root, ...guard },
    readOnlyPaths: safety.readOnlyPaths,
  });
  const { checkpoints, hooks, ...host } = wireRunners(o, settings, safety);
  const tools = createToolRegistry({ commands: !!host.exec, web: true, history: !!history, memory: !o.readOnly, skills: true });
  for (const tool of capabilities.tools) tools.register(tool);
  const deps: OrchestratorDeps = {
    root: o.root,
    settings,
    model,
    tools,
    approver: o.approver,
    tasks: host.tasks,
    history,
    patches: host.patches,
    fs: host.fs,
    ignoreFilter: ignore,
    pathPolicy: createPathPolicy(o.root, { protectedPaths: [...policy.protectedPaths, ...mcpProtected], denyPaths: policy.denyPaths }, (rel, isDir) =>
      ignore.isIgnored(rel, isDir),
    ),
    commandPolicy: safety.commandPolicy,
    exec: host.exec,
    testCommands: host.testCommands,
    ...(o.detectedTests ? { detectedTests: o.detectedTests } : {}),
    ...(hooks ? { hooks } : {}),
    web,
    search: capabilities.search,
    toolSources: capabilities.toolSources,
    onEvent: o.onEvent,
    bundledSkillsDir: o.bundledSkillsDir,
    // Restore points before each step that can change files; a read-only agent changes none.
    checkpoints,
    // One per wired agent: the runs of a session start with the token ratios earlier runs learned.
    calibration: new TokenCalibration(),
    ...(o.diagnostics ? { diagnostics: o.diagnostics } : {}),
  };
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      checkpoints?.dispose();
      safety.baseline?.dispose();
      safety.feed?.close();
      if (capabilities.ownsMcp) await capabilities.mcp?.dispose();
      // A store the host lent is the host's to close.
      if (!o.history) await history?.close();
    })());
  return { deps, history, mcp: capabilities.mcp, dispose };
}

/** What keeps the agent's commands and writes in bounds, shared by run_command, the test runner, hooks and MCP launches. */
interface AgentSafety {
  ignore: IgnoreFilter;
  testGuard: TestDefinitionGuard;
  commandPolicy: LoadedCommandPolicy;
  /** Every workspace file an MCP server's, a hook's or a model program's launch names. */
  mcpProtected: ProtectedGlob[];
  feed?: ChangeFeed;
  baseline?: GuardBaseline;
  guard: ReturnType<typeof workspaceCommandGuard>;
  /** Folders a sandbox that hides the home and /tmp must still show (the bundled skills). */
  readOnlyPaths: string[];
}

/** The policies and the guard around every command; says up front when commands run unconfined. */
async function wireSafety(o: AgentOptions, settings: PatchPilotSettings): Promise<AgentSafety> {
  const policy = settings.policy;
  // One .patchpilotignore filter for everything of this agent: path policy, command policy, the
  // command guard and the tools' listings see the same patterns (it reloads when the file changes).
  const ignore = createIgnoreFilter(o.root);
  const testGuard = TestDefinitionGuard.capture(o.root);
  const commandPolicy = await createCommandPolicy({
    user: { allow: policy.allow, ask: policy.ask, deny: policy.deny },
    trusted: true,
    isIgnoredPath: (abs) => ignore.isIgnored(abs),
    testGuard,
  });
  for (const problem of commandPolicy.settingsErrors) o.notifier.warn(problem);
  warnWhenUnconfined(o);
  // Bundled skill scripts run through run_command: a sandbox that hides the home and /tmp must still show their folder.
  const readOnlyPaths = o.bundledSkillsDir ? [o.bundledSkillsDir] : [];
  // Every workspace file an MCP server's or a workspace hook's launch names is part of its approval (policy/launch): protected while configured.
  const mcpProtected = o.readOnly ? [] : launchProtectedGlobs(o.root, settings);
  // One change feed for the workspace: the checkpoints and the guard around every command read it, so neither walks per step.
  const feed = o.readOnly ? undefined : createChangeFeed(o.root);
  const baseline = feed ? new GuardBaseline(feed) : undefined;
  const guard = workspaceCommandGuard(o.root, settings, { ignore, launchProtected: mcpProtected, baseline });
  return { ignore, testGuard, commandPolicy, mcpProtected, feed, baseline, guard, readOnlyPaths };
}

/** Say it plainly up front, not only inside refused tool results: without bubblewrap, commands run unconfined. */
function warnWhenUnconfined(o: AgentOptions): void {
  const sandbox = o.readOnly ? undefined : probeSandbox();
  if (sandbox && (!sandbox.available || sandbox.blocksUnixSockets === false)) o.notifier.warn(describeProtection(sandbox));
  // What that means for this workspace, once: its files choose what its test commands run (tools/untrustedHostRun.ts).
  if (sandbox && !sandbox.available && o.config.trusted === false)
    o.notifier.warn(
      'this workspace is not trusted and commands are not sandboxed here: its test and check commands (the package scripts, Makefiles and test configurations they run) ask before every run, in every approval mode, and again after anything in the workspace changed',
    );
}

/**
 * A store the host lent (the window's, opened to read without making the folder, so a project gets no
 * empty .patchpilot/ before its first run) still gets its state folder before any command can run.
 */
function lentStateFolder(o: AgentOptions, settings: PatchPilotSettings): void {
  const fromWorkspace = o.config.sources['patchpilot.history.path']?.scope === 'workspace';
  try {
    prepareStateFolder({ workspace: o.root, path: settings.history.path, allowOutsideWorkspace: !fromWorkspace }, true);
  } catch (err) {
    o.notifier.warn(`the state folder could not be made: ${errorMessage(err)}`);
  }
}

/** The history store in the workspace's state folder; without one (it could not open) the agent runs on and says so. */
async function openAgentHistory(o: AgentOptions, settings: PatchPilotSettings): Promise<HistoryStore | undefined> {
  try {
    const fromWorkspace = o.config.sources['patchpilot.history.path']?.scope === 'workspace';
    const history = await openHistoryStore({
      workspace: o.root,
      path: settings.history.path,
      allowOutsideWorkspace: !fromWorkspace,
      createStateFolder: true,
      retention: retentionOptions(settings.history.retention),
      // A worker: saving a big history (a 100k-row database exports in ~0.3-0.4 s) must not stall the
      // stream and Ctrl-C of a long interactive session (bench:agent, "longest loop block").
      mode: o.historyMode ?? 'worker',
      notifier: o.notifier,
    });
    for (const w of history.warnings) o.notifier.warn(w.message);
    return history;
  } catch (err) {
    o.notifier.warn(`running without history: ${errorMessage(err)}`);
    return undefined;
  }
}

/** The client for the settings' endpoint (or model program), each setting named with where it came from. */
function agentModel(o: AgentOptions, settings: PatchPilotSettings): ChatModel {
  const origin = (key: SettingKey) => describeOrigin(key, o.config.sources[key]);
  // A model program that runs workspace files starts only while they are as the user approved them (approvals/modelProgram.ts).
  const programCheck = (s: PatchPilotSettings) => {
    const preflight = modelProgramPreflight({
      root: o.root,
      stateDir: stateDirOf(o.root, s.history.path),
      userStateDir: o.userStateDir ?? defaultUserStateDir(),
      line: s.llm.command,
    });
    return preflight ? { preflight } : {};
  };
  return createChatModel({
    baseUrl: settings.llm.baseUrl,
    provider: settings.llm.provider,
    ...(settings.llm.command ? { command: { line: settings.llm.command, origin: origin('patchpilot.llm.command'), ...programCheck(settings) } } : {}),
    thinkingBudget: settings.llm.thinkingBudget,
    apiKey: o.config.apiKey,
    model: settings.llm.model!,
    fastModel: settings.llm.fastModel,
    origins: {
      baseUrl: origin('patchpilot.llm.baseUrl'),
      model: origin('patchpilot.llm.model'),
      fastModel: origin('patchpilot.llm.fastModel'),
      ...(o.config.apiKeyOrigin ? { apiKey: o.config.apiKeyOrigin } : {}),
    },
    ...(o.config.apiKeyHelp ? { apiKeyHelp: o.config.apiKeyHelp } : {}),
    contextWindows: settings.llm.contextWindows,
    prices: settings.llm.prices,
  });
}

/**
 * What acts on the workspace for the agent: its files, the patch engine, the command executor and
 * the test command runner (made as the user's own Run Tests makes it: session/testCommands.ts), all
 * refusing in restricted mode (session/restricted.ts); the hooks run in that executor, and the
 * checkpoints (none when read-only: nothing to restore) come with them.
 */
function wireRunners(o: AgentOptions, settings: PatchPilotSettings, safety: AgentSafety) {
  const { guard } = safety;
  const checkpoints = o.readOnly ? undefined : createCheckpointer(o.root, settings, safety.ignore, safety.feed);
  const fs = o.fs?.(o.root) ?? new NodeWorkspaceFs(o.root);
  const exec = workspaceExecutor(o.root, settings, guard, safety.readOnlyPaths);
  const runners = hostTestCommands(o.root, settings, o, { exec, guard, testGuard: safety.testGuard, workspaceTrusted: o.config.trusted !== false });
  const host = restrictedWhen(o.readOnly, { fs, patches: o.patches?.(o.root) ?? new PatchManager({ root: o.root, fs }), exec, ...runners });
  // Hook commands go the way of run_command's: the same policy and the same sandboxed executor.
  const hooks = createHookRunner({
    root: o.root,
    settings,
    policy: safety.commandPolicy,
    exec: host.exec,
    userStateDir: o.userStateDir,
    approveHint: o.hooksApproveHint,
    notifier: o.notifier,
  });
  return { checkpoints, hooks, ...host };
}
