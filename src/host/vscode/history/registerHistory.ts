import * as vscode from 'vscode';
import type { DiffPreview, PatchEngine } from '../../../core/ports';
import type { ToWebview } from '../../../protocol/chat';
import type { ChatController } from '../chat/controller/chatController';
import type { HostConfig } from '../config/hostConfig';
import type { WindowHistory } from '../workspace/windowHistory';
import { HISTORY_PANEL_TYPE, HistoryPanel } from './historyPanel';
import { HistoryService } from './historyService';
import { HISTORY_PATCH_SCHEME, RecordedPatchContent } from './patchDocuments';
import { PatchActions } from './patchActions';
import { RunOperations } from './runOperations';
import { registerWalkthroughContext } from './walkthroughContext';
import type { CheckpointRestores } from '../checkpoints/checkpointRestores';
import type { PatchStates } from '../patches/patchStates';

export interface HistoryDeps {
  /** The window's one store, which the agent writes to: a run shows in the panel as it happens. */
  history: WindowHistory;
  config: HostConfig;
  /** The chat's host: its run events tell the panel to look again, its approver reviews Apply Again and Revert. */
  host: ChatController;
  review?: DiffPreview;
  patches(root: string, review?: DiffPreview): PatchEngine;
  log: vscode.LogOutputChannel;
  /** Restore to before a step, the chat's; refused while its run works. */
  restores?: CheckpointRestores;
  /** The window's patch states: a change anywhere redraws the runs it touched; Apply Again and Revert feed it. */
  states?: PatchStates;
}

/** What the extension's API lends the in-host tests. */
export interface HistoryPanelApi {
  service: HistoryService;
  panel: HistoryPanel;
  runs: RunOperations;
  patches: PatchActions;
}

/**
 * "PatchPilot: Show History": the history panel, its store, the read-only documents of recorded
 * patches; and the context keys of the "Get started" walkthrough, whose last step is this panel.
 */
export function registerHistoryPanel(context: vscode.ExtensionContext, deps: HistoryDeps): HistoryPanelApi {
  const service = new HistoryService(deps.history, deps.config, deps.log);
  const patches = new PatchActions({
    service,
    config: deps.config,
    approver: deps.host.approver,
    review: deps.review,
    patches: deps.patches,
    log: deps.log,
    states: deps.states,
    reapplied: (label, files) => deps.host.patchReapplied(label, files),
  });
  // A chat's patch card known from the history (after a reload) offers this same Revert.
  deps.host.useRevert((runId, patchId) => patches.revert(runId, patchId));
  const runs = new RunOperations(service, deps.log, context.workspaceState);
  const panel = new HistoryPanel(context.extensionUri, {
    service,
    patches,
    runs,
    log: deps.log,
    restores: deps.restores,
    running: () => deps.host.running,
    states: deps.states,
  });
  let currentRun: string | undefined;
  let warmed = false;
  let lastRunning = false;
  context.subscriptions.push(
    service,
    panel,
    vscode.commands.registerCommand('patchpilot.showHistory', () => panel.show()),
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_PATCH_SCHEME, new RecordedPatchContent(service)),
    vscode.window.registerWebviewPanelSerializer(HISTORY_PANEL_TYPE, { deserializeWebviewPanel: async (p) => panel.restore(p) }),
    service.onDidChange(() => panel.changed()),
    // Undo Patch, Apply Again, Revert, a restore (recorded with their run first): the panel shows it without a reload.
    ...(deps.states ? [deps.states.onDidChange((patches) => panel.changed(patches.flatMap((p) => (p.runId ? [p.runId] : []))))] : []),
    service.onDidChangeStatus(() => void panel.pushStatus()),
    deps.host.onPush((type, payload) => {
      // Once PatchPilot is in use (the chat loaded), the window's history opens in the background: the
      // first Show History then draws from an open store (a 100 MB history takes seconds to load).
      if (type === 'chat/status' && !warmed) {
        warmed = true;
        void deps.history.get();
      }
      // A run started or ended: the panel's restore buttons follow (disabled while it works).
      if (type === 'chat/status' && (payload as { running: boolean }).running !== lastRunning) {
        lastRunning = (payload as { running: boolean }).running;
        void panel.pushStatus();
      }
      if (type !== 'chat/entry') return;
      const { entry } = payload as ToWebview['chat/entry'];
      if (entry.kind !== 'event') return;
      // The run's rows are in the shared store as soon as its events go out: look again (coalesced).
      if (entry.event.type === 'run/started') currentRun = entry.event.runId ?? undefined;
      if (currentRun) panel.changed([currentRun]);
      if (entry.event.type === 'run/finished') currentRun = undefined;
    }),
  );
  registerWalkthroughContext(context, deps.host);
  return { service, panel, runs, patches };
}
