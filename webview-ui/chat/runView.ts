/**
 * One run's section of the transcript: its header (model, mode), its tool calls as collapsible
 * items, its usage line (tokens, cost, context fill) and the line that says how it ended.
 */
import type { AgentEvent } from '../../src/protocol/agentEvents';
import { describeTestsOutcome, describeTestsWithoutEdits, runEndView } from '../../src/protocol/runEnd';
import { badge, collapsible, el, icon } from '../shared/components';
import type { ThinkingDisclosure } from './thinking';

type EventOf<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/** A tool call's item: `finished` once its result came. */
export interface ToolItem {
  item: HTMLElement;
  body: HTMLElement;
  status: HTMLElement;
  finished?: boolean;
}

export interface RunView {
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
  /** Tool calls of the run by call id. */
  tools: Map<string, ToolItem>;
  streamedSinceStep: boolean;
  /** The one line a long checkpoint updates in place ("Preparing checkpoints: 41,200 of 100,000 files"). */
  checkpointProgress?: HTMLElement;
  /** The run wrote a file (a patch, write_file, edit_file): its end's test outcome is about that edit. */
  edited: boolean;
  /** How the run's last test run went (absent: none ran), for the end line of a run without edits. */
  lastTestsPassed?: boolean;
}

/** The tools that write files outside the patch events (propose_patch and edit_file also send patch/applied). */
const WRITING_TOOLS = new Set(['write_file', 'edit_file']);

/** What the run's end line needs to know of its calls: an edit, and how the last tests went. */
export function noteRunFacts(run: RunView | undefined, e: AgentEvent): void {
  if (!run) return;
  if (e.type === 'patch/applied' || (e.type === 'tool/finished' && e.ok && WRITING_TOOLS.has(e.name))) run.edited = true;
  if (e.type === 'test/finished') run.lastTestsPassed = e.exitCode === 0;
}

/** A started run's section and its usage line (both still to be placed in the transcript). */
export function startRunView(e: EventOf<'run/started'>): RunView {
  const root = el('section', 'pp-run');
  root.setAttribute('aria-label', `Run: ${e.goal.slice(0, 80)}`);
  const meta = el('div', 'pp-run-meta', `${e.model} · ${e.mode} mode${e.contextWindowNote ? ` · ${e.contextWindowNote}` : ''}`);
  const usage = el('div', 'pp-usage');
  root.append(meta);
  return {
    root,
    meta,
    usage,
    model: e.model,
    goal: e.goal,
    contextWindow: e.contextWindow,
    text: '',
    tools: new Map(),
    streamedSinceStep: false,
    edited: false,
  };
}

/** A tool call's collapsible item, open when the reader had it open; `onToggle` hears them open or close it. */
export function toolItem(e: EventOf<'tool/started'>, open: boolean, onToggle: (open: boolean) => void): ToolItem {
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
  root.open = open;
  root.addEventListener('toggle', () => onToggle(root.open));
  return { item: root, body, status };
}

/** The tool call's result: its badge says done or failed, its body shows the output. */
export function finishToolItem(run: RunView | undefined, e: EventOf<'tool/finished'>): void {
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
}

/** The usage line while the run goes: tokens, cost, and how full the reasoning model's context is. */
export function showUsage(run: RunView, e: EventOf<'usage'>): void {
  const cached = e.totalCachedTokens ? ` (${e.totalCachedTokens.toLocaleString()} cached)` : '';
  const parts = [`${e.totalPromptTokens.toLocaleString()} in${cached}`, `${e.totalCompletionTokens.toLocaleString()} out`];
  if (e.totalCost !== undefined) parts.push(`$${e.totalCost.toFixed(4)}`);
  if (run.contextWindow && e.role !== 'fast')
    parts.push(`context ${Math.min(100, Math.round((e.promptTokens / run.contextWindow) * 100))}% of ${Math.round(run.contextWindow / 1000)}k`);
  run.usage.textContent = `${run.model} · ${parts.join(' · ')}`;
}

/** The usage line once the run ended: the run's totals, keeping the last context fill. */
export function showFinalUsage(run: RunView, e: EventOf<'run/finished'>): void {
  if (e.usage && e.usage.reasoning.promptTokens + e.usage.reasoning.completionTokens === 0 && e.status !== 'finished') {
    // Stopped before the model's first answer ended: its counts never came, and 0 would be wrong.
    run.usage.textContent = `${e.usage.reasoning.model} · no token counts (the run ended before the model reported them)`;
  } else if (e.usage) {
    const cost = e.usage.totalCost !== undefined ? ` · $${e.usage.totalCost.toFixed(4)}` : '';
    run.usage.textContent = `${e.usage.reasoning.model} · ${e.usage.reasoning.promptTokens.toLocaleString()} in · ${e.usage.reasoning.completionTokens.toLocaleString()} out${cost}${run.usage.textContent?.includes('context') ? ` · ${run.usage.textContent.split(' · ').find((p) => p.startsWith('context'))}` : ''}`;
  }
}

/** How the run ended: its status badge, reason, tests and steps. */
export function runEndLine(e: EventOf<'run/finished'>, run?: Pick<RunView, 'edited' | 'lastTestsPassed'>): HTMLElement {
  const withoutEdits = run && !run.edited && run.lastTestsPassed !== undefined ? { testsPassed: run.lastTestsPassed } : undefined;
  const view = runEndView(e.status, e.tests, withoutEdits);
  const end = el('div', `pp-run-end ${view.tone === 'ok' ? 'pp-ok' : view.tone === 'error' ? 'pp-error' : 'pp-info'}`);
  const words = withoutEdits && e.tests !== 'failed' ? describeTestsWithoutEdits(withoutEdits) : e.tests && describeTestsOutcome(e.tests, e.testFailures);
  const tests = words ? ` · ${words}` : '';
  end.append(badge(view.label, view.tone), document.createTextNode(` ${e.reason}${tests} · ${e.steps} step${e.steps === 1 ? '' : 's'}`));
  return end;
}

function briefArgs(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  // Not the finish summary: it is shown in full as the run's reply.
  const first = a.command ?? a.path ?? a.pattern ?? a.query ?? a.url;
  const s = typeof first === 'string' ? first : '';
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
