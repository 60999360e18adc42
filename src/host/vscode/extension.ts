import * as vscode from 'vscode';
import { AgentHost } from './agent/agentHost';
import { ChatViewProvider, CHAT_VIEW_ID } from './chat/chatViewProvider';
import { registerChatCommands } from './commands/chatCommands';
import { registerConfigCommands, registerDemoCommands } from './commands/configCommands';
import { DemoModel } from './config/demoModel';
import { registerRunGoal } from './commands/runGoal';
import { registerRunTests } from './commands/runTests';
import { registerShowVersion } from './commands/showVersion';
import { HostConfig } from './config/hostConfig';
import { ApiKeyStore, BRAVE_API_KEY } from './config/secrets';
import { registerDiffReview } from './diff/registerDiffReview';
import { VsCodeDiffPreview } from './diff/vsCodeDiffPreview';
import { createVsCodePatchEngine } from './diff/vsCodePatchEngine';
import { registerHistoryPanel, type HistoryPanelApi } from './history/registerHistory';
import { createLog } from './log';
import { recordTestRuns } from './tests/recordTestRuns';
import { registerTestService, testService } from './tests/testService';
import { WindowHistory } from './workspace/windowHistory';
import { VsCodeWorkspaceFs } from './workspace/vsCodeWorkspaceFs';

/** What tests in a real VS Code reach through `extension.exports`: the chat's host and the extension's own review, engine and test service. */
export interface PatchPilotApi {
  host: AgentHost;
  activationMs: number;
  diffPreview: VsCodeDiffPreview;
  createPatchEngine: typeof createVsCodePatchEngine;
  testService: typeof testService;
  history: WindowHistory;
  keys: ApiKeyStore;
  historyPanel: HistoryPanelApi;
  config: HostConfig;
}

/** Activation is a short list of registrations; each lives in its own file. */
export function activate(context: vscode.ExtensionContext): PatchPilotApi {
  const started = performance.now();
  const log = createLog(context);
  const keys = new ApiKeyStore(context.secrets);
  const searchKeys = new ApiKeyStore(context.secrets, BRAVE_API_KEY);
  const demo = new DemoModel(context.workspaceState, log);
  const config = new HostConfig(keys, log, demo, searchKeys);
  const history = new WindowHistory(config, log);
  registerDiffReview(context);
  const diffPreview = new VsCodeDiffPreview(context, log);
  const tests = registerTestService(context, { log });
  registerRunTests(context);
  const host = new AgentHost(context, config, log, {
    review: diffPreview,
    patches: (root, review) => createVsCodePatchEngine(root, review),
    fs: (root) => new VsCodeWorkspaceFs(root),
    // Test runs of the agent are VS Code tasks too (a terminal the user sees, the same guard as run_command).
    tasks: () => {
      const service = testService();
      if (!service) throw new Error('no workspace folder for the test tasks');
      return service.runner;
    },
    onDidRunTests: tests ? (listener) => tests.onDidRunTests(listener) : undefined,
    history: () => history.get(),
  });
  if (tests) context.subscriptions.push(recordTestRuns(tests, () => history.get(), log));
  const provider = new ChatViewProvider(context.extensionUri, host, log);
  context.subscriptions.push(
    demo,
    host,
    history, // after the host: its last save goes to the store first
    provider,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // A real endpoint (or model program) set while the demo answers: the user's wins from now on.
      if ((e.affectsConfiguration('patchpilot.llm.baseUrl') || e.affectsConfiguration('patchpilot.llm.command')) && demo.enabled) void demo.setEnabled(false);
      if (e.affectsConfiguration('patchpilot.history.path')) history.reset();
      if (e.affectsConfiguration('patchpilot')) host.invalidate();
    }),
    // Restricted Mode lifts: the next message is wired with commands, tests and patches again.
    vscode.workspace.onDidGrantWorkspaceTrust(() => host.invalidate()),
    keys.onDidChange(() => host.invalidate()),
    searchKeys.onDidChange(() => host.invalidate()),
    // The Stop keybinding and title button exist only while a run works.
    host.onPush((type, payload) => {
      if (type === 'chat/status') void vscode.commands.executeCommand('setContext', 'patchpilot.running', (payload as { running: boolean }).running);
    }),
  );
  registerShowVersion(context);
  registerChatCommands(context, host, provider);
  registerRunGoal(context, host, provider);
  registerConfigCommands(context, keys, config, host, log, demo, searchKeys);
  registerDemoCommands(context, demo, host);
  const historyPanel = registerHistoryPanel(context, { history, config, host, review: diffPreview, log });
  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms`);
  return { host, activationMs, diffPreview, createPatchEngine: createVsCodePatchEngine, testService, history, keys, historyPanel, config };
}

export function deactivate(): void {}
