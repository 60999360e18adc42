/**
 * Draws the chat's entries: user messages, streamed replies (markdown), tool calls as collapsible
 * items with their results, patches, tests, warnings, and per run the model, tokens, cost and
 * context fill. Appending one entry updates the DOM in place (streaming); a snapshot redraws.
 */
import type { PatchStateView } from '../../src/protocol/patchState';
import type { AgentEvent } from '../../src/protocol/agentEvents';
import type { ChatEntry } from '../../src/protocol/chat';
import { describeCheckpointProgress } from '../../src/protocol/checkpointProgress';
import { describeRulesLoaded } from '../../src/protocol/rulesLoaded';
import { describeTestsOutcome, runEndView } from '../../src/protocol/runEnd';
import { badge, button, collapsible, el, icon } from '../shared/components';
import { renderMarkdown } from '../shared/markdown';
import { ThinkingDisclosure } from './thinking';
import { PatchCard, hunkWords } from './patchCard';
import { ChatRestorePoints } from './restorePoints';
import { TestRows } from './testRows';
import type { RestoreControls } from '../shared/restorePreview';

/** What a failed run's buttons do: run its goal again, open the settings (a server that cannot be reached). */
export interface RunActions {
  retry(goal: string): void;
  openSettings(): void;
  /** Undo Patch on a written patch's item (its undoKey): the host's answer says what happened. */
  undoPatch?(key: string): Promise<{ ok: boolean; message: string }>;
  /** "Show Output" on a test run's row: the host brings up the command's task terminal. */
  showTestOutput?(command: string): void;
  /** "Restore to Here" on messages and steps that changed files (shared with the history panel). */
  restores?: RestoreControls;
}

/** What an approval was for, in words. */
const APPROVAL_WORDS: Record<string, string> = {
  command: 'the command',
  write: 'the file write',
  tests: 'the test run',
  fetch: 'the web fetch',
  mcp: 'the MCP server',
  hook: 'the workspace hook',
};

interface RunView {
  root: HTMLElement;
  meta: HTMLElement;
  usage: HTMLElement;
  contextWindow?: number;
  model: string;
  goal: string;
  /** The step's reasoning, shown as a collapsed Thinking block. */
  thinking?: ThinkingDisclosure;
  /** The reply being streamed: its text and element. */
  text: string;
  textEl?: HTMLElement;
  /** Tool calls of the run by call id; `finished` once their result came. */
  tools: Map<string, { item: HTMLElement; body: HTMLElement; status: HTMLElement; finished?: boolean }>;
  streamedSinceStep: boolean;
  /** The one line a long checkpoint updates in place ("Preparing checkpoints: 41,200 of 100,000 files"). */
  checkpointProgress?: HTMLElement;
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
    for (const p of patches) if (p.undoKey) this.patchCards.get(p.undoKey)?.showState(p, this.actions?.undoPatch);
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

  private event(e: AgentEvent, live: boolean): void {
    const run = this.run;
    switch (e.type) {
      case 'run/started': {
        const root = el('section', 'pp-run');
        root.setAttribute('aria-label', `Run: ${e.goal.slice(0, 80)}`);
        const meta = el('div', 'pp-run-meta', `${e.model} · ${e.mode} mode${e.contextWindowNote ? ` · ${e.contextWindowNote}` : ''}`);
        const usage = el('div', 'pp-usage');
        root.append(meta);
        this.root.append(root, usage);
        this.run = { root, meta, usage, model: e.model, goal: e.goal, contextWindow: e.contextWindow, text: '', tools: new Map(), streamedSinceStep: false };
        this.restorePoints.runStarted(root);
        return;
      }
      case 'step/started':
        this.endReply(run);
        if (run) {
          run.text = '';
          run.textEl = undefined;
          run.thinking = undefined;
          run.streamedSinceStep = false;
        }
        return;
      case 'reasoning/delta':
        if (run) this.thinkingOf(run).append(e.text);
        return;
      case 'reasoning/fromText':
        // An unmarked <think> block: what streamed as the reply was the model's reasoning.
        if (!run) return;
        run.textEl?.remove();
        run.textEl = undefined;
        run.text = '';
        this.thinkingOf(run).append(e.text);
        return;
      case 'model/notice':
        this.container().append(el('div', `pp-notice pp-notice-${e.kind === 'refusal' ? 'error' : 'warning'}`, e.message));
        return;
      case 'text/delta':
        if (!run) return;
        run.text += e.text;
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
        return;
      case 'text/restart':
        if (run?.textEl) {
          run.text = '';
          run.textEl.replaceChildren();
        }
        return;
      case 'user/delivered':
        this.container().append(el('div', 'pp-note', 'Your message reached the model.'));
        return;
      case 'model/retrying':
        this.container().append(el('div', 'pp-note', `Trying the model again (attempt ${e.attempt}) in ${(e.delayMs / 1000).toFixed(1)} s: ${e.reason}`));
        return;
      case 'tool/started': {
        this.endReply(run);
        if (!run) return;
        const status = badge('running');
        const { root, body } = collapsible([
          icon('tools'),
          el('span', 'pp-tool-name', e.name),
          document.createTextNode(' '),
          el('span', 'pp-tool-args', briefArgs(e.args)),
          document.createTextNode(' '),
          status,
        ]);
        root.classList.add('pp-tool');
        root.open = this.openCalls.has(e.callId);
        root.addEventListener('toggle', () => {
          if (root.open) this.openCalls.add(e.callId);
          else this.openCalls.delete(e.callId);
          this.onToggle();
        });
        if (run.textEl) run.textEl = undefined;
        run.root.append(root);
        run.tools.set(e.callId, { item: root, body, status });
        return;
      }
      case 'tool/finished': {
        const t = run?.tools.get(e.callId);
        if (!t) return;
        t.finished = true;
        t.status.replaceWith(badge(e.ok ? `done ${(e.durationMs / 1000).toFixed(1)} s` : 'failed', e.ok ? 'ok' : 'error'));
        const pre = el('pre', 'pp-tool-output', e.output);
        // Long lines scroll inside this box: a region in the tab order, so the keyboard can scroll it too.
        pre.tabIndex = 0;
        pre.setAttribute('role', 'region');
        pre.setAttribute('aria-label', `Output of ${e.name}`);
        t.body.append(pre);
        return;
      }
      case 'checkpoint/saved':
        if (run) this.restorePoints.checkpoint(e, run.root, run.tools.get(e.callId)?.item);
        return;
      case 'patch/proposed': {
        this.lastPatch = new PatchCard(e);
        this.container().append(this.lastPatch.root);
        return;
      }
      case 'patch/applied': {
        let card = this.lastPatch?.waiting ? this.lastPatch : undefined;
        if (!card) this.container().append((card = new PatchCard()).root);
        this.lastPatch = undefined;
        card.applied(e, this.actions?.undoPatch);
        if (e.undoKey) this.patchCards.set(e.undoKey, card);
        return;
      }
      case 'patch/undone':
        this.patchCards.get(e.undoKey)?.undone();
        return;
      case 'approval/answered': {
        this.container().append(el('div', 'pp-note', answeredWords(e)));
        this.setWaitingBadge(e.approved ? 'running' : 'declined');
        for (const r of e.rejected ?? [])
          this.container().append(el('div', 'pp-note pp-hunk-rejected', `You rejected ${hunkWords(r.id)}${r.reason ? `: ${r.reason}` : ''}`));
        return;
      }
      case 'approval/needed':
        // The pending approval card shows the question (see approvals in main.ts); the tool says it waits.
        this.setWaitingBadge('waiting for you');
        return;
      case 'checkpoint/progress': {
        if (!run) return;
        run.checkpointProgress ??= this.container().appendChild(el('div', 'pp-note'));
        run.checkpointProgress.textContent = describeCheckpointProgress(e);
        if (e.done >= e.total) run.checkpointProgress = undefined; // the next long checkpoint gets its own line
        return;
      }
      case 'test/started':
        this.container().append(this.testRows.started(e));
        return;
      case 'test/finished': {
        const row = this.testRows.finished(e);
        if (row) this.container().append(row);
        return;
      }
      case 'usage': {
        if (!run) return;
        const cached = e.totalCachedTokens ? ` (${e.totalCachedTokens.toLocaleString()} cached)` : '';
        const parts = [`${e.totalPromptTokens.toLocaleString()} in${cached}`, `${e.totalCompletionTokens.toLocaleString()} out`];
        if (e.totalCost !== undefined) parts.push(`$${e.totalCost.toFixed(4)}`);
        if (run.contextWindow && e.role !== 'fast')
          parts.push(`context ${Math.min(100, Math.round((e.promptTokens / run.contextWindow) * 100))}% of ${Math.round(run.contextWindow / 1000)}k`);
        run.usage.textContent = `${run.model} · ${parts.join(' · ')}`;
        return;
      }
      case 'warning':
        this.container().append(el('div', 'pp-notice pp-notice-warning', e.message));
        return;
      case 'rules/loaded': {
        // The files steering the agent, in the run's header area: the user sees which rules it follows.
        const line = el('div', 'pp-notice pp-rules', describeRulesLoaded(e.rules, e.initial));
        line.setAttribute('role', 'note');
        this.container().append(line);
        return;
      }
      case 'context/summarized': {
        const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n));
        this.container().append(el('div', 'pp-notice', `Context summarized: ${k(e.beforeTokens)} → ${k(e.afterTokens)} tokens (budget ${k(e.budgetTokens)})`));
        return;
      }
      case 'run/finished': {
        this.endReply(run);
        if (!run) return;
        // A tool still marked running when its run ends (cancelled, or the window reloaded) never finishes.
        for (const t of run.tools.values()) if (!t.finished) t.status.replaceWith(badge('stopped', 'error'));
        const view = runEndView(e.status, e.tests);
        const end = el('div', `pp-run-end ${view.tone === 'ok' ? 'pp-ok' : view.tone === 'error' ? 'pp-error' : 'pp-info'}`);
        const tests = e.tests ? ` · ${describeTestsOutcome(e.tests, e.testFailures)}` : '';
        end.append(badge(view.label, view.tone), document.createTextNode(` ${e.reason}${tests} · ${e.steps} step${e.steps === 1 ? '' : 's'}`));
        // The finish tool's summary was not streamed as text: show it as the reply.
        if (e.summary && !run.streamedSinceStep) {
          const reply = el('div', 'pp-msg pp-assistant');
          reply.append(renderMarkdown(e.summary, this.onLink));
          run.root.append(reply);
        }
        run.root.append(end);
        if (e.status === 'failed' || e.status === 'interrupted') run.root.append(this.failedRunActions(run.goal, e.failure?.kind));
        if (e.usage && e.usage.reasoning.promptTokens + e.usage.reasoning.completionTokens === 0 && e.status !== 'finished') {
          // Stopped before the model's first answer ended: its counts never came, and 0 would be wrong.
          run.usage.textContent = `${e.usage.reasoning.model} · no token counts (the run ended before the model reported them)`;
        } else if (e.usage) {
          const cost = e.usage.totalCost !== undefined ? ` · $${e.usage.totalCost.toFixed(4)}` : '';
          run.usage.textContent = `${e.usage.reasoning.model} · ${e.usage.reasoning.promptTokens.toLocaleString()} in · ${e.usage.reasoning.completionTokens.toLocaleString()} out${cost}${run.usage.textContent?.includes('context') ? ` · ${run.usage.textContent.split(' · ').find((p) => p.startsWith('context'))}` : ''}`;
        }
        this.run = undefined;
        return;
      }
    }
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

/** The user's answer in words: what they accepted of a patch (how many hunks, their own edit), or what they allowed. */
function answeredWords(e: Extract<AgentEvent, { type: 'approval/answered' }>): string {
  if (e.kind !== 'patch') {
    const what = APPROVAL_WORDS[e.kind] ?? e.kind;
    if (e.unattended) return `Nobody could approve ${what}, so it did not run.`;
    return e.approved ? `You allowed ${what}.` : `You declined ${what}.`;
  }
  if (e.unattended) return 'Nobody could review the patch, so nothing was written.';
  if (e.edited) return 'You accepted the patch with your own edit: your version is what gets written.';
  const accepted = e.accepted?.length ?? 0;
  const total = e.total ?? accepted + (e.rejected?.length ?? 0);
  if (!e.approved || accepted === 0) return 'You rejected the patch; nothing was written.';
  if (accepted === total) return `You accepted the patch (${total === 1 ? 'its one hunk' : `all ${total} hunks`}).`;
  return `You accepted ${accepted} of ${total} hunks of the patch.`;
}

function briefArgs(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  // Not the finish summary: it is shown in full as the run's reply.
  const first = a.command ?? a.path ?? a.pattern ?? a.query ?? a.url;
  const s = typeof first === 'string' ? first : '';
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
