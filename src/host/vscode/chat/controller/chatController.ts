import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HistoryStore } from '../../../../core/history';
import type { ModelMessage } from '../../../../core/llm';
import type { RunOutcome } from '../../../../core/orchestrator';
import type { ChatModel, DiffPreview, PatchEngine, TestOutputView, WorkspaceFs } from '../../../../core/ports';
import type { PatchPilotSettings } from '../../../../core/config';
import { ChatSession, loadSession, type TaskRunnerFactory } from '../../../../core/session';
import type { McpServerStatus } from '../../../../core/mcp';
import { ChatWiring } from './chatWiring';
import type { AgentEvent } from '../../../../protocol/agentEvents';
import type { ChatEntry, ChatSnapshot, ChatStatus, ToHost, ToWebview, ToWebviewType } from '../../../../protocol/chat';
import type { HostConfig } from '../../config/hostConfig';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { ChatElicitor } from '../approvals/chatElicitor';
import { ChatArchive } from '../persistence/chatArchive';
import { ChatLog } from '../persistence/chatLog';
import { VsCodeElicitor } from '../approvals/mcpElicitor';
import { ChatState } from '../persistence/chatState';
import { reviewWithChatCard, type ReviewWithControls } from '../approvals/reviewCard';
import { notifyIfUnfocused, type UnfocusedApprovalPorts } from '../approvals/unfocusedApprovalLogic';
import { VsCodeApprover, type PatchReviewer } from '../approvals/vscodeApprover';
import { errorMessage } from '../../../../core/base';
import { UserActionNews } from './userActionNews';
import type { TriggeredTestRun } from '../../tests/testService';
import type { CheckpointRestores } from '../../checkpoints/checkpointRestores';

const TEXT_SAVE_DELAY_MS = 300;
const RESTRICTED = 'Restricted Mode: PatchPilot can read and explain, but runs no commands or tests and applies no patches until you trust this workspace.';

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

export type Push = <K extends ToWebviewType>(type: K, payload: ToWebview[K]) => void;

/**
 * The extension's one chat: the core's ChatSession, the lines the view draws, the approvals that
 * wait, the wiring of the core for this workspace (rebuilt when settings or trust change). The
 * webview and the commands both drive it; it never imports the webview.
 */
export class ChatController implements vscode.Disposable {
  private chatId: string;
  private readonly log: ChatLog;
  private readonly archive: ChatArchive;
  private readonly session: ChatSession;
  /** The agent this workspace's runs use and the window's MCP servers (chatWiring.ts). */
  private readonly wiring: ChatWiring;
  private model: string | undefined;
  private notice: string | undefined;
  private demo = false;
  /** The workspace holds the sample's dates.js (the demo model's one bug). */
  private sampleHere = false;
  /** The model of a conversation opened from the history, until this chat's own first run. */
  private earlierModel: string | undefined;
  /** The run the session's transcript ends with; a newer run in the log means the transcript is stale. */
  private transcriptRunId: string | undefined;
  /** New Chat stopped a run that has not ended yet: drop its events until the next run starts. */
  private oldChatRunEnding = false;
  private readonly listeners = new Set<Push>();
  private readonly state: ChatState;
  readonly approvals: ApprovalBroker;
  readonly approver: VsCodeApprover;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly config: HostConfig,
    private readonly out: vscode.LogOutputChannel,
    private readonly services: AgentHostServices,
  ) {
    this.state = new ChatState(context.workspaceState, context.storageUri?.fsPath, (m) => out.warn(m));
    this.archive = new ChatArchive(context.storageUri?.fsPath, (m) => out.warn(m));
    const saved = this.state.load();
    this.chatId = saved?.chatId ?? randomUUID();
    this.log = new ChatLog(saved?.entries);
    // The window went away while a run worked (a reload, a crash): that run is gone with the old
    // extension host, so the chat ends it as the history does (interrupted) instead of showing a
    // run that never ends.
    const unfinished = this.log.unfinishedRunSteps();
    if (unfinished !== undefined) {
      const reason = 'the window closed or reloaded while it worked; what it did is in the history, and a message continues it';
      this.log.add({ kind: 'event', event: { type: 'run/finished', status: 'interrupted', reason, steps: unfinished } });
    }
    this.approvals = new ApprovalBroker({
      pending: (a) => {
        this.push('approval/pending', a);
        void notifyIfUnfocused(services.unfocusedApproval, a, (id, answer) => this.approvals.answer(id, answer));
      },
      resolved: (id, approved) => this.push('approval/resolved', { id, approved }),
      updated: (a) => this.push('approval/updated', a),
    });
    // Patches are reviewed in the native diff editor (per hunk, with reasons and the user's own edits);
    // the chat shows the same review as a card with Accept / Reject for the whole patch.
    const review = services.review;
    const reviewer: PatchReviewer | undefined = review
      ? (request, signal) =>
          reviewWithChatCard(
            (r, s, started) => review.review(r, s, started),
            this.approvals,
            { patchText: request.patchText, preview: request.preview },
            signal,
          )
      : undefined;
    this.approver = new VsCodeApprover(this.approvals, services.chatVisible ?? (() => false), reviewer);
    this.wiring = new ChatWiring({
      context,
      config,
      services,
      approver: this.approver,
      elicitor: new ChatElicitor(this.approvals, services.chatVisible ?? (() => false), new VsCodeElicitor()),
      notifier: { info: (m) => this.out.info(m), warn: (m) => this.addNotice('warning', m), error: (m) => this.addNotice('error', m) },
      onEvent: (e) => this.onEvent(e),
      onMcpChange: () => this.push('chat/status', this.status()),
    });
    this.session = new ChatSession({ deps: () => this.wiring.deps(), onError: (err) => this.addNotice('error', `The run could not start: ${message(err)}`) });
    // No run reference for the history here: the saved copy may be cut (see save()).
    if (saved?.transcript.length) this.session.restore(saved.transcript);
    this.transcriptRunId = saved?.transcriptRunId;
    this.userActions = new UserActionNews({
      tell: (text) => this.session.tell(text),
      notice: (level, text) => this.addNotice(level, text),
      entry: (entry) => this.addEntry(entry),
      log: this.out,
      ...(services.history ? { history: services.history } : {}),
    });
    // A run on save reaches the chat only while it has a conversation (or a run works).
    this.testRuns = services.onDidRunTests?.((run) => {
      if (run.trigger === 'save' && (this.session.running || this.log.entries.length > 0)) this.userActions.testsRanOnSave(run);
    });
    this.undos = services.undo?.onDidUndo((entry) => void this.userActions.patchUndone(entry.key, entry.label, [...entry.after.keys()]));
    // The agent hears of it from the checkpoint store's notes at its next turn (core/checkpoint/restore.ts).
    this.restoresDone = services.restores?.onDidRestore((done) => this.addEntry({ kind: 'restore', done }));
  }

  private readonly restoresDone: vscode.Disposable | undefined;

  get restores(): CheckpointRestores | undefined {
    return this.services.restores;
  }

  private readonly testRuns: vscode.Disposable | undefined;
  private readonly undos: { dispose(): void } | undefined;
  /** Tests run on the user's saves and patches the user undid: the chat shows them, the model hears of them. */
  private readonly userActions: UserActionNews;

  /** Undo Patch on a written patch's item in the chat. */
  async undoPatch(key: string): Promise<{ ok: boolean; message: string }> {
    if (!this.services.undo) return { ok: false, message: 'Undo is not available in this window.' };
    return this.services.undo.undo(key);
  }

  onPush(listener: Push): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  get running(): boolean {
    return this.session.running;
  }

  status(): ChatStatus {
    const trusted = vscode.workspace.isTrusted;
    const testsOffer = trusted ? this.services.testsOffer?.() : undefined;
    return {
      running: this.session.running,
      model: this.model,
      trusted,
      notice: this.notice ?? (trusted ? undefined : RESTRICTED),
      ...(this.demo ? { demo: true, sampleHere: this.sampleHere } : {}),
      ...(testsOffer ? { testsOffer } : {}),
      ...this.wiring.suggestions(),
    };
  }

  snapshot(): ChatSnapshot {
    return { chatId: this.chatId, entries: this.log.entries, approvals: this.approvals.pending, status: this.status() };
  }

  /** Reads the settings for the status line (model, what is missing) without starting anything. */
  async refreshStatus(): Promise<void> {
    try {
      const loaded = await this.config.load();
      this.model = loaded.config.settings.llm.model;
      this.notice = loaded.missing;
      this.demo = loaded.demo;
      const folder = vscode.workspace.workspaceFolders?.[0];
      this.sampleHere = folder?.uri.scheme === 'file' && existsSync(path.join(folder.uri.fsPath, 'dates.js'));
    } catch (err) {
      this.notice = message(err);
    }
    this.push('chat/status', this.status());
  }

  /** A user message: a new run, a follow-up, or a note for the working run's next step. */
  async send(text: string): Promise<ToHost['chat/send'][1] & { outcome?: Promise<RunOutcome> }> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return this.refuse('Open a folder first: PatchPilot works in a local workspace folder.');
    if (!this.session.running) {
      await this.refreshStatus();
      if (this.notice) return this.refuse(this.notice);
      await this.catchUp();
    }
    if (!this.session.running) this.sayModelChanged();
    const goal = await this.wiring.goalOf(text, (level, t) => this.addNotice(level, t));
    if (goal === undefined) return { delivered: 'refused', reason: 'the MCP prompt could not be used (the chat says why)' };
    const result = this.session.send(goal);
    // Queued behind the run New Chat stopped, it is the new chat's first goal, not a note for a step.
    this.addEntry({ kind: 'user', text: text.trim(), ...(result.kind === 'queued' && !this.oldChatRunEnding ? { queued: true } : {}) });
    if (result.kind === 'queued') return { delivered: 'queued' };
    this.push('chat/status', { ...this.status(), running: true });
    const outcome = result.outcome.finally(() => this.settled());
    outcome.catch((err: unknown) => this.out.error(`run failed: ${message(err)}`));
    return { delivered: 'started', outcome };
  }

  stop(): boolean {
    return this.stopRun(false).stopped;
  }

  /**
   * Stops the run. Messages still waiting for its next step are not sent; with `giveBack` (the chat's
   * Stop) their text is returned for the message box, so nothing typed is lost.
   */
  stopRun(giveBack: boolean): { stopped: boolean; unsent: string[] } {
    const unsent = [...this.session.queued];
    const stopped = this.session.stop();
    const n = unsent.length;
    if (stopped && n) {
      const what = `${n === 1 ? 'The message' : `${n} messages`} waiting for the next step ${n === 1 ? 'was' : 'were'} not sent`;
      this.addNotice('info', `Stopped. ${what}${giveBack ? `; ${n === 1 ? 'it is' : 'they are'} back in the message box.` : '.'}`);
    }
    return { stopped, unsent: stopped ? unsent : [] };
  }

  whenIdle(): Promise<void> {
    return this.session.whenIdle();
  }

  newChat(): ChatSnapshot {
    this.oldChatRunEnding = this.session.running;
    this.session.reset();
    this.userActions.clear();
    this.transcriptRunId = undefined;
    this.earlierModel = undefined;
    this.archive.keep(this.log.entries);
    this.log.clear();
    this.chatId = randomUUID();
    this.save();
    const snap = this.snapshot();
    this.push('chat/snapshot', snap);
    return snap;
  }

  /** The chat holds turns the next message would continue (Run Goal asks whether to start anew). */
  get hasConversation(): boolean {
    return this.session.earlier.length > 0 || this.log.entries.length > 0;
  }

  /** The configured test commands, through the one settings resolver (none when a value is invalid). */
  testCommands(): string[] {
    try {
      return this.config.settingsNow().tests.commands;
    } catch {
      return [];
    }
  }

  /** The window's history store (undefined without one). */
  historyStore(): Promise<HistoryStore | undefined> {
    return this.services.history?.() ?? Promise.resolve(undefined);
  }

  /**
   * An earlier conversation from the history (persistence/conversations.ts): a new chat that shows its turns
   * and continues from its newest run's end. Refused while a run works.
   */
  continueConversation(c: { entries: ChatEntry[]; transcript: ModelMessage[]; runId: string; model?: string }): ChatSnapshot {
    if (this.session.running) throw new Error('a run is working: stop it or wait for its end, then open the conversation');
    this.session.reset();
    this.session.restore(c.transcript, c.runId);
    this.transcriptRunId = undefined;
    this.archive.keep(this.log.entries);
    this.log.clear();
    // Shown as it was when this window kept its lines; else the words the history has.
    const shown = this.archive.find(c.runId);
    const reopened: ChatEntry[] = shown ? [{ kind: 'notice', level: 'info', text: reopenedNotice(c.runId) }, ...shown] : c.entries;
    for (const e of reopened) this.log.add(e);
    this.earlierModel = c.model;
    this.chatId = randomUUID();
    this.save();
    const snap = this.snapshot();
    this.push('chat/snapshot', snap);
    return snap;
  }

  /**
   * The model changed since this chat's last run: the new model would get the old turns without the
   * user knowing. The chat says so before the run starts, with the way to start without them.
   */
  private sayModelChanged(): void {
    const before = this.log.lastRunModel() ?? this.earlierModel;
    if (!before || !this.model || before === this.model || this.session.earlier.length === 0) return;
    this.addNotice(
      'info',
      `The model changed from ${before} to ${this.model}: ${this.model} receives this conversation's earlier turns with your message. To start without them, use New Chat.`,
    );
  }

  /** Settings, the key or trust changed: the next run gets a new agent (a working run keeps its own); the status line updates now. */
  invalidate(): void {
    this.wiring.invalidate();
    void this.refreshStatus();
  }

  /** The MCP servers' status (for a view to show); empty until the first run wires them. */
  mcpStatus(): McpServerStatus[] {
    return this.wiring.mcp?.status() ?? [];
  }

  dispose(): void {
    this.testRuns?.dispose();
    this.undos?.dispose();
    this.restoresDone?.dispose();
    this.session.stop();
    this.save();
    this.wiring.dispose();
  }

  /**
   * A reloaded window whose last save missed the end of a run (the window went away first) shows
   * that run but holds an older transcript: the follow-up then continues from the history store,
   * which recorded the run's conversation as it ended. Without a store, the saved transcript stands.
   */
  private async catchUp(): Promise<void> {
    const last = this.log.lastRunId();
    if (!last || last === this.transcriptRunId) return;
    try {
      const store = await this.services.history?.();
      if (!store) return;
      const resumed = await loadSession(store, last);
      this.session.restore(resumed.transcript, resumed.recorded ? last : undefined);
      this.transcriptRunId = last;
      this.out.info(
        `chat continued from the history of run ${last} (${resumed.transcript.length} messages${resumed.recorded ? '' : ', rebuilt from its steps'})`,
      );
    } catch (err) {
      this.out.warn(`chat not continued from history: ${message(err)}; the follow-up sees the turns saved with the window`);
    }
  }

  private onEvent(e: AgentEvent): void {
    this.services.telemetry?.onEvent(e);
    // After New Chat, the run it stopped still winds down: its last events belong to the old chat.
    if (this.oldChatRunEnding && e.type !== 'run/started') return;
    this.oldChatRunEnding = false;
    if (e.type === 'run/started') this.model = e.model;
    this.userActions.noteEvent(e);
    // Also for a run the session starts by itself (a message typed during the last step): Stop follows.
    if (e.type === 'run/started') this.push('chat/status', { ...this.status(), running: true });
    if (e.type === 'warning') this.out.warn(e.message);
    if (e.type === 'run/finished') this.out.info(`run ${e.status}: ${e.reason} (${e.steps} steps)`);
    this.addEntry({ kind: 'event', event: e });
    // Also a run the session started by itself (a queued message) has an end the view must hear of.
    if (e.type === 'run/finished') void this.session.whenIdle().then(() => this.settled());
  }

  /** No run works (any more): the session holds the newest transcript; keep it and say so to the view. */
  private settled(): void {
    if (this.session.running) return;
    this.oldChatRunEnding = false;
    this.transcriptRunId = this.log.lastRunId();
    this.save();
    this.push('chat/status', this.status());
  }

  /** A line in the chat from the host (not the agent), also in the log. */
  addNotice(level: 'info' | 'warning' | 'error', text: string): void {
    this.out[level === 'info' ? 'info' : level === 'warning' ? 'warn' : 'error'](text);
    this.addEntry({ kind: 'notice', level, text });
  }

  private addEntry(entry: ChatEntry): void {
    this.log.add(entry);
    this.push('chat/entry', { chatId: this.chatId, entry });
    // Streamed text arrives in many small pieces: saved together shortly after. Everything else
    // (a message, a run's start and end, a tool call) is saved right away (the lines of one moment
    // in one write), so a reload just after it keeps it.
    this.saveWithin(entry.kind === 'event' && (entry.event.type === 'text/delta' || entry.event.type === 'reasoning/delta') ? TEXT_SAVE_DELAY_MS : 0);
  }

  private saveTimer: { handle: NodeJS.Timeout; due: number } | undefined;

  /** A reload in the middle of a run keeps what the chat showed so far. */
  private saveWithin(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (this.saveTimer && this.saveTimer.due <= due) return;
    clearTimeout(this.saveTimer?.handle);
    this.saveTimer = { handle: setTimeout(() => this.save(), delayMs), due };
  }

  private refuse(reason: string): ToHost['chat/send'][1] {
    this.push('chat/status', this.status());
    return { delivered: 'refused', reason };
  }

  private push: Push = (type, payload) => {
    for (const l of this.listeners) l(type, payload);
  };

  /** Kept (capped) so a reloaded window shows the chat and continues its conversation. */
  private save(): void {
    clearTimeout(this.saveTimer?.handle);
    this.saveTimer = undefined;
    this.state.save({
      chatId: this.chatId,
      entries: this.log.entries.slice(-400),
      transcript: fromUserTurn([...this.session.earlier].slice(-200)),
      ...(this.transcriptRunId ? { transcriptRunId: this.transcriptRunId } : {}),
    });
  }
}

/** Starts at a user message, so a cut never splits a tool call from its result. */
function fromUserTurn(messages: ModelMessage[]): ModelMessage[] {
  const i = messages.findIndex((m) => m.role === 'user');
  return i < 0 ? [] : messages.slice(i);
}

function message(err: unknown): string {
  return errorMessage(err);
}

function reopenedNotice(runId: string): string {
  return `Reopened as it was shown (run ${runId.slice(0, 8)}): the model continues from its end. A patch undone or files restored since say so when you use their buttons; the history has every step.`;
}
