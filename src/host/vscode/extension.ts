import * as vscode from 'vscode';
import { ChatController } from './chat/controller/chatController';
import { ChatViewProvider, CHAT_VIEW_ID } from './chat/view/chatViewProvider';
import { registerChatCommands } from './commands/chatCommands';
import { registerConversationCommands } from './commands/conversationCommands';
import { continueInSample, registerOpenSample } from './commands/openSample';
import { registerConfigCommands, registerDemoCommands } from './commands/configCommands';
import { registerMcpLoginCommands } from './commands/mcpLogin';
import { registerImportSettings } from './commands/importSettings';
import { DemoModel } from './config/demoModel';
import { registerRunGoal } from './commands/runGoal';
import { registerRunTests } from './commands/runTests';
import { DetectedTestsOffer } from './tests/offerDetectedTests';
import { WindowSettings } from './config/windowSettings';
import { PatchStates } from './patches/patchStates';
import { followPatchStates } from './diff/reviewPatchStates';
import { registerPatchStatusBar } from './patches/patchStatusBar';
import { registerShowVersion } from './commands/showVersion';
import { registerApproveModelProgram } from './commands/approveModelProgram';
import { HostConfig } from './config/hostConfig';
import { namesOwnModel } from './config/settingsReader';
import { ApiKeyStore, BRAVE_API_KEY, ProviderKeys } from './config/secrets';
import { hostChatModel } from './llm/hostModel';
import { registerDiffReview } from './diff/registerDiffReview';
import { DiffReviewServices, VsCodeDiffPreview } from './diff/vsCodeDiffPreview';
import { PatchJournal } from './diff/patchJournal';
import { PatchUndo } from './diff/undoPatch';
import { OwnSaves } from './workspace/ownSaves';
import { OffThreadPlanner } from '../../core/patch';
import { ChatViewSlot } from './chat/view/chatViewSlot';
import type { DiffPreview, PatchEngine } from '../../core/ports';
import type { PatchManager } from '../../core/patch';
import { createVsCodePatchEngine } from './diff/vsCodePatchEngine';
import { CHECKPOINT_SCHEME, CheckpointRestores } from './checkpoints/checkpointRestores';
import { registerHistoryPanel, type HistoryPanelApi } from './history/registerHistory';
import { createLog } from './log';
import { recordTestRuns } from './tests/recordTestRuns';
import { createTestService, type TestService } from './tests/testService';
import { WindowHistory } from './workspace/windowHistory';
import { VsCodeWorkspaceFs } from './workspace/vsCodeWorkspaceFs';
import { registerPublicApi } from './api/registerPublicApi';
import { HostTelemetry } from './telemetry/hostTelemetry';
import type { PatchPilotPublicApi } from '../../protocol/patchPilotApi';

/**
 * What `activate()` returns. `version` and `api` are the public, documented surface (docs/api.md,
 * src/protocol/patchPilotApi.ts); the rest is what tests in a real VS Code reach through
 * `extension.exports`: the chat's host and the extension's own review, engine and test service.
 */
export interface PatchPilotApi {
  version: number;
  api: PatchPilotPublicApi;
  host: ChatController;
  activationMs: number;
  diffPreview: VsCodeDiffPreview;
  createPatchEngine: (root: string, review?: DiffPreview) => PatchEngine & { manager: PatchManager };
  testService: () => TestService | undefined;
  history: WindowHistory;
  /** The key of a custom endpoint (no provider chosen); `providerKeys` has every provider's. */
  keys: ApiKeyStore;
  providerKeys: ProviderKeys;
  historyPanel: HistoryPanelApi;
  config: HostConfig;
}

/** Activation composes the window's ports, the chat on them, its views, what it follows and the commands; each lives in its own file. */
export function activate(context: vscode.ExtensionContext): PatchPilotApi {
  const started = performance.now();
  const ports = composePorts(context);
  const host = createChatController(context, ports);
  const { provider, patchStates, api } = registerViews(context, ports, host);
  followChanges(context, ports, host, provider, patchStates);
  const historyPanel = registerCommands(context, ports, host, provider, patchStates);
  void ports.testsOffer.check();
  const activationMs = performance.now() - started;
  ports.log.info(`activated in ${activationMs.toFixed(1)} ms`);
  const { diffPreview, patchEngine, tests, history, keys, providerKeys, config } = ports;
  return {
    version: api.version,
    api,
    host,
    activationMs,
    diffPreview,
    createPatchEngine: patchEngine,
    testService: () => tests,
    history,
    keys,
    providerKeys,
    historyPanel,
    config,
  };
}

/** The window's host services, each created once and handed to what needs it (no module-level locators). */
interface Ports {
  log: vscode.LogOutputChannel;
  providerKeys: ProviderKeys;
  keys: ApiKeyStore;
  searchKeys: ApiKeyStore;
  demo: DemoModel;
  windowSettings: WindowSettings;
  config: HostConfig;
  history: WindowHistory;
  journal: PatchJournal;
  ownSaves: OwnSaves;
  patchEngine: (root: string, review?: DiffPreview) => PatchEngine & { manager: PatchManager };
  undo: PatchUndo;
  diffPreview: VsCodeDiffPreview;
  /** The diff editor's per-hunk reviews (their decisions and the patch states follow each other). */
  reviews: DiffReviewServices;
  chatView: ChatViewSlot;
  tests: TestService | undefined;
  testsOffer: DetectedTestsOffer;
  restores: CheckpointRestores;
  telemetry: HostTelemetry;
}

function composePorts(context: vscode.ExtensionContext): Ports {
  const log = createLog(context);
  const providerKeys = new ProviderKeys(context.secrets);
  const searchKeys = new ApiKeyStore(context.secrets, BRAVE_API_KEY);
  const demo = new DemoModel(context.workspaceState, log);
  const windowSettings = new WindowSettings();
  const config = new HostConfig(providerKeys, log, demo, searchKeys, windowSettings);
  const history = new WindowHistory(config, log);
  const reviews = new DiffReviewServices();
  const journal = new PatchJournal();
  const planner = new OffThreadPlanner();
  context.subscriptions.push({ dispose: () => void planner.dispose() });
  // PatchPilot's own saves: run on save skips them (the agent tests its edits itself).
  const ownSaves = new OwnSaves();
  const patchEngine = (root: string, review?: DiffPreview) => createVsCodePatchEngine(root, journal, planner, review, new VsCodeWorkspaceFs(root, ownSaves));
  const undo = new PatchUndo(journal, planner, ownSaves);
  registerDiffReview(context, reviews, undo);
  const diffPreview = new VsCodeDiffPreview(context, reviews, log);
  const tests = createTestService(context, () => config.settingsNow(), log, ownSaves);
  registerRunTests(context, tests);
  const chatView = new ChatViewSlot();
  const testsOffer = new DetectedTestsOffer(
    context,
    () => config.settingsNow(),
    log,
    windowSettings,
    () => chatView.visible,
  );
  const restores = new CheckpointRestores(log);
  const telemetry = new HostTelemetry(() => config.settingsNow(), log);
  void telemetry.reload();
  context.subscriptions.push(
    { dispose: () => void telemetry.dispose() },
    restores.onDidRestore((done) => telemetry.checkpointRestored(done.restored.length)),
  );
  context.subscriptions.push(restores, vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, restores.contentProvider()));
  return {
    ...{ log, providerKeys, keys: providerKeys.for(undefined), searchKeys, demo, windowSettings, config, history },
    ...{ journal, ownSaves, patchEngine, undo, diffPreview, reviews, chatView, tests, testsOffer, restores, telemetry },
  };
}

/** The window's one chat, lent the review, the patch engine, the test tasks and the history. */
function createChatController(context: vscode.ExtensionContext, ports: Ports): ChatController {
  const { config, log, diffPreview, patchEngine, ownSaves, undo, journal, tests, history, chatView, testsOffer, restores, telemetry } = ports;
  const host = new ChatController(context, config, log, {
    review: diffPreview,
    patches: patchEngine,
    fs: (root) => new VsCodeWorkspaceFs(root, ownSaves),
    undo: { undo: (key) => undo.undo(key), onDidUndo: (listener) => journal.onDidUndo(listener) },
    // Test runs of the agent are VS Code tasks too (a terminal the user sees, the same guard as run_command).
    // with the guard, environment and home exceptions createAgent resolved for run_command.
    tasks: (o) => {
      if (!tests) throw new Error('no workspace folder for the test tasks');
      return tests.runnerFor(o);
    },
    // The agent's sandboxed test runs show the executor's process in the same task terminals.
    testOutput: tests?.terminals,
    onDidRunTests: tests ? (listener) => tests.onDidRunTests(listener) : undefined,
    history: () => history.get(),
    chatVisible: () => chatView.visible,
    unfocusedApproval: {
      enabled: () => config.settingsNow().notifications.approvalWhenUnfocused,
      focused: () => vscode.window.state.focused,
      notify: (message, ...choices) => vscode.window.showInformationMessage(message, ...choices),
    },
    chatModel: hostChatModel,
    testsOffer: () => testsOffer.pending,
    restores,
    telemetry,
  });
  if (tests) context.subscriptions.push(recordTestRuns(tests, () => history.get(), log));
  return host;
}

/** The chat view, the patch status bar and the public API, over one source of each patch's state. */
function registerViews(context: vscode.ExtensionContext, ports: Ports, host: ChatController) {
  // One source of each patch's state for every view (chat, history, status bar), fed by the chat host's entries and the history's actions.
  const patchStates = new PatchStates(
    () => ports.history.get(),
    (message) => ports.log.warn(message),
  );
  patchStates.follow((listener) => host.onPush(listener));
  registerPatchStatusBar(context, patchStates);
  context.subscriptions.push(followPatchStates(ports.reviews, patchStates));
  const provider = new ChatViewProvider(context.extensionUri, host, ports.log, ports.chatView, patchStates);
  const api = registerPublicApi(context, host);
  return { provider, patchStates, api };
}

/** What the window owns (disposed in this order) and the changes the chat follows: settings, trust, keys, models. */
function followChanges(context: vscode.ExtensionContext, ports: Ports, host: ChatController, provider: ChatViewProvider, patchStates: PatchStates): void {
  const { demo, testsOffer, windowSettings, history, telemetry, providerKeys, searchKeys } = ports;
  context.subscriptions.push(
    demo,
    host,
    testsOffer,
    patchStates,
    testsOffer.onDidChange(() => void host.refreshStatus()),
    windowSettings,
    // A choice for this window only counts as a configuration change does.
    windowSettings.onDidChange(() => host.invalidate()),
    history, // after the host: its last save goes to the store first
    provider,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // A real endpoint (or model program) set while the demo answers: the user's wins from now on (a field cleared to "" is no endpoint).
      const programSet = e.affectsConfiguration('patchpilot.llm.command');
      const endpointChanged = e.affectsConfiguration('patchpilot.llm.baseUrl') || e.affectsConfiguration('patchpilot.llm.provider') || programSet;
      if (endpointChanged && demo.enabled && (programSet || namesOwnModel(vscode.workspace.getConfiguration(), vscode.workspace.isTrusted)))
        void demo.setEnabled(false);
      if (e.affectsConfiguration('patchpilot.history.path')) history.reset();
      if (e.affectsConfiguration('patchpilot.telemetry')) void telemetry.reload();
      if (e.affectsConfiguration('patchpilot')) host.invalidate();
    }),
    // Restricted Mode lifts: the next message is wired with commands, tests and patches again.
    vscode.workspace.onDidGrantWorkspaceTrust(() => host.invalidate()),
    providerKeys.onDidChange(() => host.invalidate()),
    // VS Code's models come and go (an extension signs in or out): the chat's status follows.
    vscode.lm.onDidChangeChatModels(() => host.invalidate()),
    searchKeys.onDidChange(() => host.invalidate()),
    // The Stop keybinding and title button exist only while a run works.
    host.onPush((type, payload) => {
      if (type === 'chat/status') void vscode.commands.executeCommand('setContext', 'patchpilot.running', (payload as { running: boolean }).running);
    }),
  );
}

/** The palette's commands and the history panel; returns the panel for tests. */
function registerCommands(
  context: vscode.ExtensionContext,
  ports: Ports,
  host: ChatController,
  provider: ChatViewProvider,
  patchStates: PatchStates,
): HistoryPanelApi {
  const { providerKeys, config, log, demo, searchKeys, history, diffPreview, patchEngine, restores } = ports;
  registerShowVersion(context);
  registerApproveModelProgram(context, config, host);
  registerChatCommands(context, host, provider);
  registerConversationCommands(context, host, provider);
  registerRunGoal(context, host, provider);
  registerConfigCommands(context, providerKeys, config, host, log, demo, searchKeys);
  registerImportSettings(context, providerKeys, () => host.invalidate());
  registerDemoCommands(context, demo, host);
  registerMcpLoginCommands(context, config, () => host.invalidate());
  registerOpenSample(context, demo);
  void continueInSample(context, demo).then(() => host.invalidate());
  return registerHistoryPanel(context, { history, config, host, review: diffPreview, patches: patchEngine, log, restores, states: patchStates });
}

export function deactivate(): void {}
