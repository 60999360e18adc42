import type * as vscode from 'vscode';
import type { HistoryStore } from '../../../../core/history';
import type { ChatModel, DiffPreview, Host, PatchEngine, TaskRunnerFactory, TestOutputView, WorkspaceFs } from '../../../../core/ports';
import type { PatchPilotSettings } from '../../../../core/config';
import { testOfferButtons } from '../../../../core/testRuns';
import type { UnansweredTestCommand } from '../../../../core/tools';
import { NodeWorkspaceFs } from '../../../node/nodeWorkspaceFs';
import { VsCodeDiagnostics } from '../../workspace/vsCodeDiagnostics';
import type { AgentEvent } from '../../../../protocol/agentEvents';
import type { ReviewWithControls } from '../approvals/reviewCard';
import type { UnfocusedApprovalPorts } from '../approvals/unfocusedApprovalLogic';
import type { TriggeredTestRun } from '../../tests/testService';
import type { CheckpointRestores } from '../../checkpoints/checkpointRestores';

/** What the other parts of the extension lend the agent: the diff review, the patch engine and files over VS Code, the test tasks. */
export interface AgentHostServices {
  review?: DiffPreview & { review: ReviewWithControls };
  patches?: (root: string, review?: DiffPreview) => PatchEngine;
  fs?: (root: string) => WorkspaceFs;
  tasks: TaskRunnerFactory;
  /** The task terminals the agent's sandboxed test runs stream into. */
  testOutput?: TestOutputView;
  /** Finished test runs outside the agent (run on save): the model hears of what is news (runOnSaveNews.ts). */
  onDidRunTests?: (listener: (run: TriggeredTestRun) => void) => vscode.Disposable;
  /** The window's patch undo (diff/undoPatch.ts) and its announcements (also of the palette's Undo Last Patch). */
  undo?: {
    undo(key: string): Promise<{ ok: boolean; message: string }>;
    onDidUndo(listener: (entry: { key: string; label: string; after: ReadonlyMap<string, string | null> }) => void): { dispose(): void };
  };
  /** The window's history store, shared (and closed) by its owner. */
  history?: () => Promise<HistoryStore | undefined>;
  /** Whether the chat view shows now (else approvals also ask in a modal); without it, never. */
  chatVisible?: () => boolean;
  /** Asks in a notification as well when the window is not focused (patchpilot.notifications.approvalWhenUnfocused). */
  unfocusedApproval?: UnfocusedApprovalPorts;
  /** A model the host serves itself for these settings (VS Code's own models); undefined: the endpoint's client. */
  chatModel?: (settings: PatchPilotSettings) => Promise<ChatModel | undefined>;
  /** The detected test command waiting for the user's answer (tests/offerDetectedTests.ts), shown as a banner. */
  testsOffer?: () => { command: string; source: string } | undefined;
  /** "Restore to Here" (chat and history panel); a restore done shows in the chat with Redo. */
  restores?: CheckpointRestores;
  /** Every agent event also goes to telemetry (patchpilot.telemetry.*, off by default). */
  telemetry?: { onEvent(e: AgentEvent): void };
}

/** What the chat itself lends the agent of one workspace folder: its approver, notifier and event sink, the window's secrets, the bundled skills. */
export type ChatHostParts = Pick<Host, 'root' | 'approver' | 'notifier' | 'onEvent' | 'secrets' | 'bundledSkillsDir'>;

/** VS Code's Host: the services the extension lends, with the chat's parts, for one workspace folder. */
export function vsCodeHost(services: AgentHostServices, chat: ChatHostParts): Host {
  const { review, patches } = services;
  return {
    ...chat,
    tasks: services.tasks,
    testOutput: services.testOutput,
    // The extension lends its WorkspaceEdit files; a host made without them (in-host tests) reads and writes on disk.
    fs: services.fs ?? ((root) => new NodeWorkspaceFs(root)),
    ...(patches ? { patches: (root: string) => patches(root, review) } : {}),
    ...(services.chatModel ? { model: services.chatModel } : {}),
    ...(services.history ? { history: services.history } : {}),
    // The Problems view: new errors and warnings in the files an edit touched go back with it.
    diagnostics: new VsCodeDiagnostics(chat.root),
    // run_tests runs the offered command while the offer waits (the after-edit runs wait for the answer).
    detectedTests: () => unansweredTestCommand(services.testsOffer?.()),
  };
}

/** The offer waiting for an answer, with how to keep its command (the model's run_tests result says so). */
function unansweredTestCommand(offered: { command: string; source: string } | undefined): UnansweredTestCommand | undefined {
  if (!offered) return undefined;
  const [use] = testOfferButtons(offered);
  return { ...offered, keep: `"${use}" in the chat's banner or the notification, or the setting patchpilot.tests.commands` };
}
