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
import type { ChatModel, Host } from '../ports';
import { TokenCalibration } from '../context/tokenCounter';
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
import { hostTestCommands, launchProtectedGlobs, workspaceCommandGuard, workspaceExecutor } from './testCommands';

/**
 * The wiring choices a host makes beyond what it lends (the Host port) and the configuration: how
 * the agent runs, not what it runs on.
 */
export interface AgentOptions {
  /**
   * Read and explain only (an untrusted workspace): approval mode plan, no command executor, no
   * test runs, no run_command tool. The host says why; the core makes sure (session/restricted.ts).
   */
  readOnly?: boolean;
  /** How the history store runs: a worker (the default; saving a big database must not stall the stream) or in-process. */
  historyMode?: 'worker' | 'in-process';
  /** Per-user folder outside the workspace (the key that signs MCP approvals); default: defaultUserStateDir(). */
  userStateDir?: string;
  /** An MCP manager the host keeps across agents (reconfigured by each); without one, the agent makes one when servers are configured. */
  mcp?: McpManager;
}

/** What createAgent is given, passed whole to the steps that wire its parts. */
interface AgentInputs {
  host: Host;
  config: ResolvedConfig;
  options: AgentOptions;
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
export async function createAgent(host: Host, config: ResolvedConfig, options: AgentOptions = {}): Promise<Agent> {
  const settings: PatchPilotSettings = options.readOnly ? { ...config.settings, approval: { mode: 'plan' }, git: { autoCommit: false } } : config.settings;
  const a: AgentInputs = { host, config, options };
  const { root } = host;
  const policy = settings.policy;
  const safety = await wireSafety(a, settings);
  const { ignore, guard, mcpProtected } = safety;
  const lent = await host.history?.();
  const history = lent ?? (await openAgentHistory(a, settings));
  if (lent && !options.readOnly) lentStateFolder(a, settings);
  const model = (await host.model?.(settings)) ?? agentModel(a, settings);
  const web: OrchestratorDeps['web'] = (url, signal) =>
    safeFetch(url, { signal, settings: { fetchAllowHosts: policy.fetchAllowHosts, allowPrivateNetwork: policy.allowPrivateNetwork } });
  const capabilities = await wireCapabilities({
    root,
    config,
    settings,
    notifier: host.notifier,
    readOnly: options.readOnly,
    mcp: options.mcp,
    userStateDir: options.userStateDir,
    mcpApproveHint: host.mcpApproveHint,
    ...(host.elicitor ? { mcpElicitor: host.elicitor } : {}),
    secrets: host.secrets,
    guard: { root, ...guard },
    readOnlyPaths: safety.readOnlyPaths,
  });
  const { checkpoints, hooks, ...acting } = wireRunners(a, settings, safety);
  const tools = createToolRegistry({ commands: !!acting.exec, web: true, history: !!history, memory: !options.readOnly, skills: true });
  for (const tool of capabilities.tools) tools.register(tool);
  const deps: OrchestratorDeps = {
    root,
    settings,
    model,
    tools,
    approver: host.approver,
    tasks: acting.tasks,
    history,
    patches: acting.patches,
    fs: acting.fs,
    ignoreFilter: ignore,
    pathPolicy: createPathPolicy(root, { protectedPaths: [...policy.protectedPaths, ...mcpProtected], denyPaths: policy.denyPaths }, (rel, isDir) =>
      ignore.isIgnored(rel, isDir),
    ),
    commandPolicy: safety.commandPolicy,
    exec: acting.exec,
    testCommands: acting.testCommands,
    ...(host.detectedTests ? { detectedTests: () => host.detectedTests?.() } : {}),
    ...(hooks ? { hooks } : {}),
    web,
    search: capabilities.search,
    toolSources: capabilities.toolSources,
    onEvent: (e) => host.onEvent(e),
    bundledSkillsDir: host.bundledSkillsDir,
    // Restore points before each step that can change files; a read-only agent changes none.
    checkpoints,
    // One per wired agent: the runs of a session start with the token ratios earlier runs learned.
    calibration: new TokenCalibration(),
    ...(host.diagnostics ? { diagnostics: host.diagnostics } : {}),
  };
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      checkpoints?.dispose();
      safety.baseline?.dispose();
      safety.feed?.close();
      if (capabilities.ownsMcp) await capabilities.mcp?.dispose();
      // A store the host lent is the host's to close.
      if (!lent) await history?.close();
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
async function wireSafety(a: AgentInputs, settings: PatchPilotSettings): Promise<AgentSafety> {
  const policy = settings.policy;
  // One .patchpilotignore filter for everything of this agent: path policy, command policy, the
  // command guard and the tools' listings see the same patterns (it reloads when the file changes).
  const ignore = createIgnoreFilter(a.host.root);
  const testGuard = TestDefinitionGuard.capture(a.host.root);
  const commandPolicy = await createCommandPolicy({
    user: { allow: policy.allow, ask: policy.ask, deny: policy.deny },
    trusted: true,
    isIgnoredPath: (abs) => ignore.isIgnored(abs),
    testGuard,
  });
  for (const problem of commandPolicy.settingsErrors) a.host.notifier.warn(problem);
  warnWhenUnconfined(a);
  // Bundled skill scripts run through run_command: a sandbox that hides the home and /tmp must still show their folder.
  const readOnlyPaths = a.host.bundledSkillsDir ? [a.host.bundledSkillsDir] : [];
  // Every workspace file an MCP server's or a workspace hook's launch names is part of its approval (policy/launch): protected while configured.
  const mcpProtected = a.options.readOnly ? [] : launchProtectedGlobs(a.host.root, settings);
  // One change feed for the workspace: the checkpoints and the guard around every command read it, so neither walks per step.
  const feed = a.options.readOnly ? undefined : createChangeFeed(a.host.root);
  const baseline = feed ? new GuardBaseline(feed) : undefined;
  const guard = workspaceCommandGuard(a.host.root, settings, { ignore, launchProtected: mcpProtected, baseline });
  return { ignore, testGuard, commandPolicy, mcpProtected, feed, baseline, guard, readOnlyPaths };
}

/** Say it plainly up front, not only inside refused tool results: without bubblewrap, commands run unconfined. */
function warnWhenUnconfined(a: AgentInputs): void {
  const sandbox = a.options.readOnly ? undefined : probeSandbox();
  if (sandbox && (!sandbox.available || sandbox.blocksUnixSockets === false)) a.host.notifier.warn(describeProtection(sandbox));
  // What that means for this workspace, once: its files choose what its test commands run (tools/untrustedHostRun.ts).
  if (sandbox && !sandbox.available && a.config.trusted === false)
    a.host.notifier.warn(
      'this workspace is not trusted and commands are not sandboxed here: its test and check commands (the package scripts, Makefiles and test configurations they run) ask before every run, in every approval mode, and again after anything in the workspace changed',
    );
}

/**
 * A store the host lent (the window's, opened to read without making the folder, so a project gets no
 * empty .patchpilot/ before its first run) still gets its state folder before any command can run.
 */
function lentStateFolder(a: AgentInputs, settings: PatchPilotSettings): void {
  const fromWorkspace = a.config.sources['patchpilot.history.path']?.scope === 'workspace';
  try {
    prepareStateFolder({ workspace: a.host.root, path: settings.history.path, allowOutsideWorkspace: !fromWorkspace }, true);
  } catch (err) {
    a.host.notifier.warn(`the state folder could not be made: ${errorMessage(err)}`);
  }
}

/** The history store in the workspace's state folder; without one (it could not open) the agent runs on and says so. */
async function openAgentHistory(a: AgentInputs, settings: PatchPilotSettings): Promise<HistoryStore | undefined> {
  try {
    const fromWorkspace = a.config.sources['patchpilot.history.path']?.scope === 'workspace';
    const history = await openHistoryStore({
      workspace: a.host.root,
      path: settings.history.path,
      allowOutsideWorkspace: !fromWorkspace,
      createStateFolder: true,
      retention: retentionOptions(settings.history.retention),
      // A worker: saving a big history (a 100k-row database exports in ~0.3-0.4 s) must not stall the
      // stream and Ctrl-C of a long interactive session (bench:agent, "longest loop block").
      mode: a.options.historyMode ?? 'worker',
      notifier: a.host.notifier,
    });
    for (const w of history.warnings) a.host.notifier.warn(w.message);
    return history;
  } catch (err) {
    a.host.notifier.warn(`running without history: ${errorMessage(err)}`);
    return undefined;
  }
}

/** The client for the settings' endpoint (or model program), each setting named with where it came from. */
function agentModel(a: AgentInputs, settings: PatchPilotSettings): ChatModel {
  const origin = (key: SettingKey) => describeOrigin(key, a.config.sources[key]);
  // A model program that runs workspace files starts only while they are as the user approved them (approvals/modelProgram.ts).
  const programCheck = (s: PatchPilotSettings) => {
    const preflight = modelProgramPreflight({
      root: a.host.root,
      stateDir: stateDirOf(a.host.root, s.history.path),
      userStateDir: a.options.userStateDir ?? defaultUserStateDir(),
      line: s.llm.command,
    });
    return preflight ? { preflight } : {};
  };
  return createChatModel({
    baseUrl: settings.llm.baseUrl,
    provider: settings.llm.provider,
    ...(settings.llm.command ? { command: { line: settings.llm.command, origin: origin('patchpilot.llm.command'), ...programCheck(settings) } } : {}),
    thinkingBudget: settings.llm.thinkingBudget,
    apiKey: a.config.apiKey,
    model: settings.llm.model!,
    fastModel: settings.llm.fastModel,
    origins: {
      baseUrl: origin('patchpilot.llm.baseUrl'),
      model: origin('patchpilot.llm.model'),
      fastModel: origin('patchpilot.llm.fastModel'),
      ...(a.config.apiKeyOrigin ? { apiKey: a.config.apiKeyOrigin } : {}),
    },
    ...(a.config.apiKeyHelp ? { apiKeyHelp: a.config.apiKeyHelp } : {}),
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
function wireRunners(a: AgentInputs, settings: PatchPilotSettings, safety: AgentSafety) {
  const { guard } = safety;
  const checkpoints = a.options.readOnly ? undefined : createCheckpointer(a.host.root, settings, safety.ignore, safety.feed);
  const fs = a.host.fs(a.host.root);
  const exec = workspaceExecutor(a.host.root, settings, guard, safety.readOnlyPaths);
  const runners = hostTestCommands(a.host.root, settings, a.host, { exec, guard, testGuard: safety.testGuard, workspaceTrusted: a.config.trusted !== false });
  const acting = restrictedWhen(a.options.readOnly, {
    fs,
    patches: a.host.patches?.(a.host.root) ?? new PatchManager({ root: a.host.root, fs }),
    exec,
    ...runners,
  });
  // Hook commands go the way of run_command's: the same policy and the same sandboxed executor.
  const hooks = createHookRunner({
    root: a.host.root,
    settings,
    policy: safety.commandPolicy,
    exec: acting.exec,
    userStateDir: a.options.userStateDir,
    approveHint: a.host.hooksApproveHint,
    notifier: a.host.notifier,
  });
  return { checkpoints, hooks, ...acting };
}
