/**
 * Draws the chat's entries: user messages, streamed replies (markdown), tool calls as collapsible
 * items with their results, patches, tests, warnings, and per run the model, tokens, cost and
 * context fill. Appending one entry updates the DOM in place (streaming); a snapshot redraws.
 */
import type { PatchStateView } from '../../src/protocol/patchState';
import type { AgentEvent } from '../../src/protocol/agentEvents';
import type { ChatEntry } from '../../src/protocol/chat';
import { describeCheckpointProgress } from '../../src/protocol/checkpointProgress';
import { badge, button, el } from '../shared/components';
import { renderMarkdown } from '../shared/markdown';
import { ThinkingDisclosure } from './thinking';
import { PatchCard, hunkWords } from './patchCard';
import { ChatRestorePoints } from './restorePoints';
import { TestRows } from './testRows';
import { answeredWords, noteLine } from './eventNotes';
import { finishToolItem, noteRunFacts, runEndLine, showFinalUsage, showUsage, startRunView, toolItem, type RunView } from './runView';
import type { RestoreControls } from '../shared/restorePreview';

/** What a failed run's buttons do: run its goal again, open the settings (a server that cannot be reached). */
export interface RunActions {
  retry(goal: string): void;
  openSettings(): void;
  /** Undo Patch on a written patch's item (its undoKey): the host's answer says what happened. */
  undoPatch?(key: string): Promise<{ ok: boolean; message: string }>;
  /** Revert Patch on a card known from the history (after a reload): the history panel's Revert of the recorded patch. */
  revertPatch?(runId: string, patchId: string): Promise<{ ok: boolean; message: string }>;
  /** "Show Output" on a test run's row: the host brings up the command's task terminal. */
  showTestOutput?(command: string): void;
  /** "Restore to Here" on messages and steps that changed files (shared with the history panel). */
  restores?: RestoreControls;
}

export class Transcript {
  private run: RunView | undefined;
  private pendingRender = false;
  /** The newest patch card (a patch/applied that follows fills it in) and the written ones by undo key. */
  private lastPatch: PatchCard | undefined;
  private readonly patchCards = new Map<string, PatchCard>();
  private readonly restorePoints: ChatRestorePoints;
  private readonly testRows: TestRows;

  /**
   * `openCalls`: the tool calls (by call id) the reader has open; kept across redraws (the view is
   * rebuilt each time it is shown) and reported through `onToggle` so the view can save them.
   */
  constructor(
    private readonly root: HTMLElement,
    private readonly onLink: (href: string) => void,
    readonly openCalls = new Set<string>(),
    private readonly onToggle: () => void = () => undefined,
    private readonly actions?: RunActions,
  ) {
    this.restorePoints = new ChatRestorePoints(actions?.restores);
    this.testRows = new TestRows(actions?.showTestOutput);
  }

  /** Whether a Thinking block is open now; new ones start closed. */
  private thinkingOpen = false;

  /** The host's patch states (chat/patchStates): each written patch's card says where it stands now. */
  showPatchStates(patches: readonly PatchStateView[]): void {
    for (const p of patches) if (p.undoKey) this.patchCards.get(p.undoKey)?.showState(p, this.actions);
  }

  reset(entries: readonly ChatEntry[]): void {
    this.root.replaceChildren();
    this.run = undefined;
    this.lastPatch = undefined;
    this.patchCards.clear();
    this.restorePoints.reset();
    this.testRows.reset();
    for (const e of entries) this.add(e, false);
    this.flushText(); // a reply still streaming stays busy
  }

  add(entry: ChatEntry, live = true): void {
    if (entry.kind === 'user') {
      const m = el('div', `pp-msg pp-user${entry.queued ? ' pp-queued' : ''}`);
      m.append(el('div', 'pp-who', entry.queued ? 'You (for the next step)' : 'You'), el('div', 'pp-user-text', entry.text));
      this.container().append(m);
      if (!entry.queued) this.restorePoints.userMessage(m);
    } else if (entry.kind === 'notice') {
      this.container().append(el('div', `pp-notice pp-notice-${entry.level}`, entry.text));
    } else if (entry.kind === 'reply') {
      const m = el('div', 'pp-msg pp-assistant');
      m.append(renderMarkdown(entry.text, this.onLink));
      this.container().append(m);
    } else if (entry.kind === 'restore') {
      this.container().append(this.restorePoints.restoreDone(entry.done));
    } else this.event(entry.event, live);
    if (live) this.root.lastElementChild?.scrollIntoView?.({ block: 'end' });
  }

  /** The newest unfinished tool call's badge: waiting for an approval, running again, or declined. */
  private setWaitingBadge(text: string): void {
    const tool = [...(this.run?.tools.values() ?? [])].reverse().find((t) => !t.finished);
    if (!tool) return;
    const next = badge(text, text === 'declined' ? 'error' : 'info');
    tool.status.replaceWith(next);
    tool.status = next;
  }

  private container(): HTMLElement {
    return this.run?.root ?? this.root;
  }

  /** One agent event: each kind goes to the method that draws it. */
  private event(e: AgentEvent, live: boolean): void {
    const run = this.run;
    noteRunFacts(run, e);
    switch (e.type) {
      case 'run/started':
        return this.runStarted(e);
      case 'step/started':
        return this.stepStarted(run);
      case 'reasoning/delta':
        if (run) this.thinkingOf(run).append(e.text);
        return;
      case 'reasoning/fromText':
        return this.reasoningFromText(run, e.text);
      case 'text/delta':
        return this.textDelta(run, e.text, live);
      case 'text/restart':
        if (run?.textEl) {
          run.text = '';
          run.textEl.replaceChildren();
        }
        return;
      case 'tool/started':
        return this.toolStarted(run, e);
      case 'tool/finished':
        return finishToolItem(run, e);
      case 'checkpoint/saved':
        if (run) this.restorePoints.checkpoint(e, run.root, run.tools.get(e.callId)?.item);
        return;
      case 'checkpoint/progress':
        return this.checkpointProgress(run, e);
      case 'patch/proposed':
      case 'patch/applied':
      case 'patch/undone':
        return this.patchEvent(e);
      case 'approval/answered':
        return this.approvalAnswered(e);
      case 'approval/needed':
        // The pending approval card shows the question (see approvals in main.ts); the tool says it waits.
        return this.setWaitingBadge('waiting for you');
      case 'test/started': {
        const row = this.testRows.started(e);
        if (row) this.container().append(row);
        return;
      }
      case 'test/finished': {
        const row = this.testRows.finished(e);
        if (row) this.container().append(row);
        return;
      }
      case 'usage':
        if (run) showUsage(run, e);
        return;
      case 'run/finished':
        this.testRows.runEnded();
        return this.runFinished(run, e);
      default: {
        const line = noteLine(e);
        if (line) this.container().append(line);
      }
    }
  }

  private runStarted(e: Extract<AgentEvent, { type: 'run/started' }>): void {
    this.run = startRunView(e);
    this.root.append(this.run.root, this.run.usage);
    this.restorePoints.runStarted(this.run.root);
  }

  private stepStarted(run: RunView | undefined): void {
    this.endReply(run);
    if (!run) return;
    run.text = '';
    run.textEl = undefined;
    run.thinking = undefined;
    run.streamedSinceStep = false;
  }

  /** An unmarked <think> block: what streamed as the reply was the model's reasoning. */
  private reasoningFromText(run: RunView | undefined, text: string): void {
    if (!run) return;
    run.textEl?.remove();
    run.textEl = undefined;
    run.text = '';
    this.thinkingOf(run).append(text);
  }

  private textDelta(run: RunView | undefined, text: string, live: boolean): void {
    if (!run) return;
    run.text += text;
    run.streamedSinceStep = true;
    run.thinking?.done();
    if (!run.textEl) {
      run.textEl = el('div', 'pp-msg pp-assistant');
      // The log (role=log) announces the reply; while it streams it is busy, so a screen reader
      // reads it once it is whole instead of every redrawn fragment.
      run.textEl.setAttribute('aria-busy', 'true');
      run.root.append(run.textEl);
    }
    if (live) this.scheduleText();
    else this.pendingRender = true;
  }

  private toolStarted(run: RunView | undefined, e: Extract<AgentEvent, { type: 'tool/started' }>): void {
    this.endReply(run);
    if (!run) return;
    const tool = toolItem(e, this.openCalls.has(e.callId), (open) => {
      if (open) this.openCalls.add(e.callId);
      else this.openCalls.delete(e.callId);
      this.onToggle();
    });
    if (run.textEl) run.textEl = undefined;
    run.root.append(tool.item);
    run.tools.set(e.callId, tool);
  }

  /** The one line a long checkpoint updates in place. */
  private checkpointProgress(run: RunView | undefined, e: Extract<AgentEvent, { type: 'checkpoint/progress' }>): void {
    if (!run) return;
    run.checkpointProgress ??= this.container().appendChild(el('div', 'pp-note'));
    run.checkpointProgress.textContent = describeCheckpointProgress(e);
    if (e.done >= e.total) run.checkpointProgress = undefined; // the next long checkpoint gets its own line
  }

  /** A proposed patch gets a card; its applied event fills that card in (or a new one); undone marks it. */
  private patchEvent(e: Extract<AgentEvent, { type: 'patch/proposed' | 'patch/applied' | 'patch/undone' }>): void {
    if (e.type === 'patch/proposed') {
      this.lastPatch = new PatchCard(e);
      this.container().append(this.lastPatch.root);
    } else if (e.type === 'patch/applied') {
      let card = this.lastPatch?.waiting ? this.lastPatch : undefined;
      if (!card) this.container().append((card = new PatchCard()).root);
      this.lastPatch = undefined;
      card.applied(e, this.actions?.undoPatch);
      if (e.undoKey) this.patchCards.set(e.undoKey, card);
    } else this.patchCards.get(e.undoKey)?.undone();
  }

  private approvalAnswered(e: Extract<AgentEvent, { type: 'approval/answered' }>): void {
    this.container().append(el('div', 'pp-note', answeredWords(e)));
    this.setWaitingBadge(e.approved ? 'running' : 'declined');
    for (const r of e.rejected ?? [])
      this.container().append(el('div', 'pp-note pp-hunk-rejected', `You rejected ${hunkWords(r.id)}${r.reason ? `: ${r.reason}` : ''}`));
  }

  private runFinished(run: RunView | undefined, e: Extract<AgentEvent, { type: 'run/finished' }>): void {
    this.endReply(run);
    if (!run) return;
    // A tool still marked running when its run ends (cancelled, or the window reloaded) never finishes.
    for (const t of run.tools.values()) if (!t.finished) t.status.replaceWith(badge('stopped', 'error'));
    // The finish tool's summary was not streamed as text: show it as the reply.
    if (e.summary && !run.streamedSinceStep) {
      const reply = el('div', 'pp-msg pp-assistant');
      reply.append(renderMarkdown(e.summary, this.onLink));
      run.root.append(reply);
    }
    run.root.append(runEndLine(e, run));
    if (e.status === 'failed' || e.status === 'interrupted') run.root.append(this.failedRunActions(run.goal, e.failure?.kind));
    showFinalUsage(run, e);
    this.run = undefined;
  }

  private thinkingOf(run: RunView): ThinkingDisclosure {
    if (!run.thinking) {
      run.thinking = new ThinkingDisclosure(this.thinkingOpen, (open) => (this.thinkingOpen = open));
      // Above the reply of its step, when the reply already started.
      if (run.textEl) run.root.insertBefore(run.thinking.root, run.textEl);
      else run.root.append(run.thinking.root);
    }
    return run.thinking;
  }

  /** Retry runs the goal again; a server that was not reached also offers its settings. */
  private failedRunActions(goal: string, kind: string | undefined): HTMLElement {
    const row = el('div', 'pp-run-actions');
    if (!this.actions) return row;
    const actions = this.actions;
    row.append(button({ label: 'Retry', name: 'Retry Run', icon: 'refresh', onClick: () => actions.retry(goal) }));
    if (kind === 'unreachable' || kind === 'auth') row.append(button({ label: 'Open Settings', variant: 'secondary', onClick: () => actions.openSettings() }));
    return row;
  }

  private scheduleText(): void {
    if (this.pendingRender) return;
    this.pendingRender = true;
    requestAnimationFrame(() => this.flushText());
  }

  private flushText(): void {
    this.pendingRender = false;
    const run = this.run;
    if (!run?.textEl) return;
    run.textEl.replaceChildren(renderMarkdown(run.text, this.onLink));
  }

  /** The reply being streamed is complete (a step, a tool call or the run followed it). */
  private endReply(run: RunView | undefined): void {
    run?.thinking?.done();
    this.flushText();
    run?.textEl?.setAttribute('aria-busy', 'false');
  }
}
