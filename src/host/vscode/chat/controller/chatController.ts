import * as vscode from 'vscode';
import { Disposable, Emitter, errorMessage, type IDisposable } from '../../../../core/base';
import type { HistoryStore } from '../../../../core/history';
import type { ModelMessage } from '../../../../core/llm';
import type { RunOutcome } from '../../../../core/orchestrator';
import { ChatSession, loadSession } from '../../../../core/session';
import type { McpServerStatus } from '../../../../core/mcp';
import type { AgentEvent } from '../../../../protocol/agentEvents';
import type { ChatEntry, ChatSnapshot, ChatStatus, ToHost, ToWebview, ToWebviewType } from '../../../../protocol/chat';
import type { RestoreDone } from '../../../../protocol/restore';
import type { HostConfig } from '../../config/hostConfig';
import type { CheckpointRestores } from '../../checkpoints/checkpointRestores';
import type { ApprovalBroker } from '../approvals/approvalBroker';
import { createChatApprovals } from '../approvals/chatApprovals';
import type { VsCodeApprover } from '../approvals/vscodeApprover';
import { ChatPersistence } from '../persistence/chatPersistence';
import { ChatStatusLine } from '../status/chatStatusLine';
import type { AgentHostServices } from './agentHostServices';
import { ChatWiring } from './chatWiring';
import { UserActionNews } from './userActionNews';

export type Push = <K extends ToWebviewType>(type: K, payload: ToWebview[K]) => void;

/** One message for the view, as `Push` hands it over. */
interface Pushed {
  type: ToWebviewType;
  payload: unknown;
}

/**
 * The extension's one chat: it routes a message to the core's ChatSession and the session's events
 * to the view, and keeps the approvals that wait. What the chat keeps across reloads is its
 * persistence (ChatPersistence), the status line is ChatStatusLine, the agent the runs use is
 * ChatWiring's (replaced when settings or trust change). The webview and the commands both drive
 * it; it never imports the webview.
 */
export class ChatController extends Disposable {
  private readonly persistence: ChatPersistence;
  private readonly statusLine: ChatStatusLine;
  private readonly session: ChatSession;
  /** The agent this workspace's runs use and the window's MCP servers (chatWiring.ts). */
  private readonly wiring: ChatWiring;
  /** Tests run on the user's saves and patches the user undid: the chat shows them, the model hears of them. */
  private readonly userActions: UserActionNews;
  private readonly pushed = this._register(new Emitter<Pushed>());
  /** The model of a conversation opened from the history, until this chat's own first run. */
  private earlierModel: string | undefined;
  /** New Chat stopped a run that has not ended yet: drop its events until the next run starts. */
  private oldChatRunEnding = false;
  readonly approvals: ApprovalBroker;
  readonly approver: VsCodeApprover;

  constructor(
    context: vscode.ExtensionContext,
    private readonly config: HostConfig,
    private readonly out: vscode.LogOutputChannel,
    private readonly services: AgentHostServices,
  ) {
    super();
    this.statusLine = this._register(new ChatStatusLine(config));
    this._register(this.statusLine.onDidChange(() => this.push('chat/status', this.status())));
    const { approvals, approver, elicitor } = createChatApprovals(services, this.push);
    this.approvals = approvals;
    this.approver = approver;
    this.wiring = this._register(
      new ChatWiring({
        context,
        config,
        services,
        approver,
        elicitor,
        notifier: { info: (m) => this.out.info(m), warn: (m) => this.addNotice('warning', m), error: (m) => this.addNotice('error', m) },
        onEvent: (e) => this.onEvent(e),
        onMcpChange: () => this.push('chat/status', this.status()),
      }),
    );
    this.session = new ChatSession({
      deps: () => this.wiring.deps(),
      onError: (err) => this.addNotice('error', `The run could not start: ${errorMessage(err)}`),
    });
    // Registered after the wiring, so disposed before it: the chat is written before its agent closes.
    this.persistence = this._register(
      new ChatPersistence(
        context.workspaceState,
        context.storageUri?.fsPath,
        (m) => out.warn(m),
        () => this.session.earlier,
      ),
    );
    // No run reference for the history here: the saved copy may be cut (see ChatPersistence.save).
    if (this.persistence.savedTranscript.length) this.session.restore([...this.persistence.savedTranscript]);
    this.userActions = new UserActionNews({
      tell: (text) => this.session.tell(text),
      notice: (level, text) => this.addNotice(level, text),
      entry: (entry) => this.addEntry(entry),
      log: this.out,
      ...(services.history ? { history: services.history } : {}),
    });
    this.followUserActions();
  }

  /** Runs on save, undone patches and restores done outside the chat show in it (userActionNews.ts). */
  private followUserActions(): void {
    const { services } = this;
    // A run on save reaches the chat only while it has a conversation (or a run works).
    const testRuns = services.onDidRunTests?.((run) => {
      if (run.trigger === 'save' && (this.session.running || this.persistence.log.entries.length > 0)) this.userActions.testsRanOnSave(run);
    });
    const undos = services.undo?.onDidUndo((entry) => void this.userActions.patchUndone(entry.key, entry.label, [...entry.after.keys()]));
    // The agent hears of it from the checkpoint store's notes at its next turn (core/checkpoint/restore.ts).
    const restoresDone = services.restores?.onDidRestore((done) => void this.restoreDone(done));
    for (const d of [testRuns, undos, restoresDone]) if (d) this._register(d);
  }

  /**
   * A restore is recorded with its run first, then the chat shows it: the window's patch states read
   * that record for the patches they know only from the history (after a reload, patchStates.ts).
   */
  private async restoreDone(done: RestoreDone): Promise<void> {
    // The run's checkpoint points say when the step restored to began: the patches written since are the ones taken back.
    const point = this.services.restores?.points(done.request.runId).find((p) => p.step >= done.request.beforeStep);
    await this.userActions.restored(done, point?.at);
    this.addEntry({ kind: 'restore', done });
  }

  get restores(): CheckpointRestores | undefined {
    return this.services.restores;
  }

  /** The history's Apply Again wrote a patch again: the chat and the model learn of it (userActionNews.ts). */
  patchReapplied(label: string, files: readonly string[]): void {
    this.userActions.patchReapplied(label, files);
  }

  /** The history panel's Revert of a recorded patch (set when the history panel is registered). */
  private reverter: ((runId: string, patchId: string) => Promise<{ ok: boolean; message: string }>) | undefined;

  /** The history's Revert lends itself to the chat's cards of patches known from the history (registerHistory.ts). */
  useRevert(revert: (runId: string, patchId: string) => Promise<{ ok: boolean; message: string }>): void {
    this.reverter = revert;
  }

  /** Revert Patch on a patch card known from the history: the history panel's Revert, its review included. */
  async revertRecordedPatch(runId: string, patchId: string): Promise<{ ok: boolean; message: string }> {
    if (!this.reverter) return { ok: false, message: 'Revert is not available in this window.' };
    return this.reverter(runId, patchId);
  }

  /** Undo Patch on a written patch's item in the chat. */
  async undoPatch(key: string): Promise<{ ok: boolean; message: string }> {
    if (!this.services.undo) return { ok: false, message: 'Undo is not available in this window.' };
    return this.services.undo.undo(key);
  }

  onPush(listener: Push): IDisposable {
    return this.pushed.event((m) => listener(m.type, m.payload as never));
  }

  get running(): boolean {
    return this.session.running;
  }

  status(): ChatStatus {
    return this.statusLine.status({ running: this.session.running, testsOffer: this.services.testsOffer, suggestions: this.wiring.suggestions() });
  }

  snapshot(): ChatSnapshot {
    return { chatId: this.persistence.chatId, entries: this.persistence.log.entries, approvals: this.approvals.pending, status: this.status() };
  }

  /** Reads the settings for the status line (model, what is missing) without starting anything. */
  refreshStatus(): Promise<void> {
    return this.statusLine.refresh();
  }

  /** A user message: a new run, a follow-up, or a note for the working run's next step. */
  async send(text: string): Promise<ToHost['chat/send'][1] & { outcome?: Promise<RunOutcome> }> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return this.refuse('Open a folder first: PatchPilot works in a local workspace folder.');
    if (!this.session.running) {
      await this.refreshStatus();
      if (this.statusLine.notice) return this.refuse(this.statusLine.notice);
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
    outcome.catch((err: unknown) => this.out.error(`run failed: ${errorMessage(err)}`));
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
    this.earlierModel = undefined;
    this.persistence.startNewChat();
    this.persistence.save();
    const snap = this.snapshot();
    this.push('chat/snapshot', snap);
    return snap;
  }

  /** The chat holds turns the next message would continue (Run Goal asks whether to start anew). */
  get hasConversation(): boolean {
    return this.session.earlier.length > 0 || this.persistence.log.entries.length > 0;
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
    this.persistence.startNewChat();
    // Shown as it was when this window kept its lines (the chat just archived among them); else the words the history has.
    const shown = this.persistence.shownLinesOf(c.runId);
    const reopened: ChatEntry[] = shown ? [{ kind: 'notice', level: 'info', text: reopenedNotice(c.runId) }, ...shown] : c.entries;
    for (const e of reopened) this.persistence.log.add(e);
    this.earlierModel = c.model;
    this.persistence.save();
    const snap = this.snapshot();
    this.push('chat/snapshot', snap);
    return snap;
  }

  /**
   * The model changed since this chat's last run: the new model would get the old turns without the
   * user knowing. The chat says so before the run starts, with the way to start without them.
   */
  private sayModelChanged(): void {
    const before = this.persistence.log.lastRunModel() ?? this.earlierModel;
    const now = this.statusLine.model;
    if (!before || !now || before === now || this.session.earlier.length === 0) return;
    this.addNotice(
      'info',
      `The model changed from ${before} to ${now}: ${now} receives this conversation's earlier turns with your message. To start without them, use New Chat.`,
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

  override dispose(): void {
    // The working run ends first; then the chat is written and the agent closed (in reverse of registration).
    this.session.stop();
    super.dispose();
  }

  /**
   * A reloaded window whose last save missed the end of a run (the window went away first) shows
   * that run but holds an older transcript: the follow-up then continues from the history store,
   * which recorded the run's conversation as it ended. Without a store, the saved transcript stands.
   */
  private async catchUp(): Promise<void> {
    const last = this.persistence.log.lastRunId();
    if (!last || last === this.persistence.transcriptRunId) return;
    try {
      const store = await this.services.history?.();
      if (!store) return;
      const resumed = await loadSession(store, last);
      this.session.restore(resumed.transcript, resumed.recorded ? last : undefined);
      this.persistence.transcriptRunId = last;
      this.out.info(
        `chat continued from the history of run ${last} (${resumed.transcript.length} messages${resumed.recorded ? '' : ', rebuilt from its steps'})`,
      );
    } catch (err) {
      this.out.warn(`chat not continued from history: ${errorMessage(err)}; the follow-up sees the turns saved with the window`);
    }
  }

  private onEvent(e: AgentEvent): void {
    this.services.telemetry?.onEvent(e);
    // After New Chat, the run it stopped still winds down: its last events belong to the old chat.
    if (this.oldChatRunEnding && e.type !== 'run/started') return;
    this.oldChatRunEnding = false;
    if (e.type === 'run/started') this.statusLine.model = e.model;
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
    this.persistence.transcriptRunId = this.persistence.log.lastRunId();
    this.persistence.save();
    this.push('chat/status', this.status());
  }

  /** A line in the chat from the host (not the agent), also in the log. */
  addNotice(level: 'info' | 'warning' | 'error', text: string): void {
    this.out[level === 'info' ? 'info' : level === 'warning' ? 'warn' : 'error'](text);
    this.addEntry({ kind: 'notice', level, text });
  }

  private addEntry(entry: ChatEntry): void {
    this.persistence.log.add(entry);
    this.push('chat/entry', { chatId: this.persistence.chatId, entry });
    this.persistence.entryAdded(entry);
  }

  private refuse(reason: string): ToHost['chat/send'][1] {
    this.push('chat/status', this.status());
    return { delivered: 'refused', reason };
  }

  private push: Push = (type, payload) => {
    this.pushed.fire({ type, payload });
  };
}

function reopenedNotice(runId: string): string {
  return `Reopened as it was shown (run ${runId.slice(0, 8)}): the model continues from its end. A patch undone or files restored since say so when you use their buttons; the history has every step.`;
}
