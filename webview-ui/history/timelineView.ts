/**
 * One run, drawn: its header (goal, status, times, tokens, cost, models, Export and Delete), the
 * timeline (messages, tool calls collapsed with their arguments and results, patches with each
 * hunk's state and reason and Open / Apply Again / Revert, test runs, policy verdicts and answers,
 * the fast model's summaries) and the run's memory. Model and tool text is drawn as text, or as the
 * chat's sanitised markdown (markdown.ts builds DOM nodes with textContent; links open through the
 * host, http(s) only; images are never fetched).
 */
import type { HunkStateView, ObservationView, RunTimelineView, TimelineItem } from '../../src/protocol/history';
import type { QueryTerm } from '../../src/protocol/historyMatch';
import { renderMarkdown } from '../shared/markdown';
import { badge, button, collapsible, el } from '../shared/components';
import { clock, cost, dateTime, duration, oneLine, plural, tokens } from './format';
import { markTextNodes } from './highlight';
import { renderUsage } from './usageView';
import { renderRestorePoints } from './restoreSection';
import { canRevertNow, hunksNow, patchStateLine } from './patchStateNow';
import type { RestoreControls } from '../shared/restorePreview';

export interface TimelineActions {
  openLink(href: string): void;
  openPatch(patchId: string, files: string[]): void;
  applyAgain(patchId: string): void;
  revert(patchId: string): void;
  exportRun(format: 'json' | 'markdown'): void;
  deleteRun(): void;
  continueInChat(): void;
  /** "Restore to before step N" on the steps that changed files. */
  restores?: RestoreControls;
}

const STATUS_TONE: Record<string, 'ok' | 'error' | 'info'> = {
  finished: 'ok',
  limit: 'error',
  failed: 'error',
  blocked: 'error',
  interrupted: 'error',
  cancelled: 'info',
  stopped: 'error',
  running: 'info',
};

export function renderRun(view: RunTimelineView, actions: TimelineActions, terms: readonly QueryTerm[]): HTMLElement {
  const root = el('article', 'pp-run-detail');
  const r = view.run;
  root.setAttribute('aria-label', `Run: ${oneLine(r.goal, 120)}`);
  const title = el('h2', 'pp-goal', r.goal);
  title.tabIndex = -1;
  const meta = el('div', 'pp-meta');
  meta.append(badge(r.status, STATUS_TONE[r.status] ?? 'info'));
  const parts = [
    `started ${dateTime(r.startedAt)}`,
    r.endedAt !== null ? `took ${duration(r.endedAt - r.startedAt)}` : 'in progress',
    plural(r.steps, 'step'),
    `${tokens(r.tokensIn)} in · ${tokens(r.tokensOut)} out tokens`,
    cost(r.costUsd),
    r.models.join(' / '),
  ].filter(Boolean);
  meta.append(document.createTextNode(` ${parts.join(' · ')}`));
  const bar = el('div', 'pp-actions');
  bar.append(
    button({ label: 'Continue in Chat', name: 'Continue in Chat', onClick: () => actions.continueInChat() }),
    button({ label: 'Export JSON', name: 'Export run as JSON', variant: 'secondary', onClick: () => actions.exportRun('json') }),
    button({ label: 'Export Markdown', name: 'Export run as Markdown', variant: 'secondary', onClick: () => actions.exportRun('markdown') }),
    button({ label: 'Delete Run', name: 'Delete run', variant: 'secondary', onClick: () => actions.deleteRun() }),
  );
  root.append(title, meta, bar);
  if (view.usage?.length) root.append(renderUsage(view.usage, 'Model usage by source'));
  if (view.restorePoints?.length && actions.restores) root.append(renderRestorePoints(r.id, view.restorePoints, actions.restores));

  const timeline = el('section', 'pp-timeline');
  timeline.setAttribute('aria-label', 'Timeline');
  timeline.append(el('h3', undefined, 'Timeline'));
  const list = el('ol', 'pp-items');
  for (const item of view.items) list.append(renderItem(item, actions, terms));
  if (view.items.length === 0) list.append(el('li', 'pp-note', 'Nothing recorded for this run yet.'));
  timeline.append(list);
  root.append(timeline);

  const memory = el('section', 'pp-memory');
  memory.setAttribute('aria-label', 'Observations and Q&A');
  memory.append(el('h3', undefined, `Observations and Q&A (${view.observations.length})`));
  const mlist = el('ul', 'pp-items');
  for (const o of view.observations) mlist.append(renderObservation(o, terms));
  if (view.observations.length === 0) mlist.append(el('li', 'pp-note', 'This run kept no observations.'));
  memory.append(mlist);
  root.append(memory);
  markTextNodes(title, terms);
  return root;
}

function item(kind: string, id: string, time: number): HTMLLIElement {
  const li = el('li', `pp-item pp-item-${kind}`);
  li.dataset.id = id;
  li.tabIndex = -1;
  li.append(el('span', 'pp-time', clock(time)));
  return li;
}

function renderItem(i: TimelineItem, actions: TimelineActions, terms: readonly QueryTerm[]): HTMLElement {
  switch (i.kind) {
    case 'message':
      return renderMessage(i, actions, terms);
    case 'tool':
      return renderTool(i, terms);
    case 'patch':
      return renderPatch(i, actions, terms);
    case 'test':
      return renderTest(i, terms);
    case 'policy':
      return renderPolicy(i, terms);
    case 'summary':
      return renderSummary(i, actions, terms);
  }
}

/** A message of the user, the model or the system; the model's as markdown. */
function renderMessage(i: Extract<TimelineItem, { kind: 'message' }>, actions: TimelineActions, terms: readonly QueryTerm[]): HTMLElement {
  const li = item('message', i.id, i.time);
  li.append(el('span', 'pp-who', i.role === 'user' ? 'You' : i.role === 'assistant' ? 'Model' : 'System'));
  const body = el('div', `pp-msg pp-${i.role}`);
  if (i.role === 'assistant') body.append(renderMarkdown(i.text, actions.openLink));
  else body.textContent = i.text;
  markTextNodes(body, terms);
  li.append(body);
  return li;
}

/** A tool call, collapsed: its arguments and result are built only when opened. */
function renderTool(i: Extract<TimelineItem, { kind: 'tool' }>, terms: readonly QueryTerm[]): HTMLElement {
  const li = item('tool', i.id, i.time);
  const args = firstArg(i.args);
  const summary = [
    el('span', 'pp-tool-name', i.tool),
    document.createTextNode(' '),
    el('span', 'pp-tool-args', args),
    ...(i.durationMs !== null ? [document.createTextNode(' '), el('span', 'pp-note', duration(i.durationMs))] : []),
  ];
  const { root, body } = collapsible(summary);
  root.classList.add('pp-tool');
  // Long results stay collapsed, and are only built when opened.
  const fill = () => {
    if (body.childElementCount) return;
    if (i.args) body.append(el('div', 'pp-label', 'Arguments'), el('pre', 'pp-code', i.args));
    body.append(
      el('div', 'pp-label', `Result${i.resultChars > i.result.length ? ` (${i.resultChars.toLocaleString()} characters)` : ''}`),
      el('pre', 'pp-code', i.result || '(empty)'),
    );
    markTextNodes(body, terms);
  };
  root.addEventListener('toggle', fill);
  li.append(root);
  markTextNodes(root.querySelector('summary')!, terms);
  return li;
}

/** A patch: its files, how many hunks applied (and undone or applied again), each hunk's state and what can be done with it now. */
function renderPatch(i: Extract<TimelineItem, { kind: 'patch' }>, actions: TimelineActions, terms: readonly QueryTerm[]): HTMLElement {
  const li = item('patch', i.id, i.time);
  const box = el('div', 'pp-patch');
  const head = el('div', 'pp-patch-title', `Patch to ${i.files.join(', ')}`);
  const state = patchStateLine(i);
  box.append(head, el('div', 'pp-note', state));
  const hunks = el('ul', 'pp-hunks');
  hunks.setAttribute('aria-label', 'Hunks');
  for (const h of hunksNow(i)) hunks.append(renderHunk(h));
  box.append(hunks);
  const bar = el('div', 'pp-actions');
  const files = i.files.join(', ');
  bar.append(
    button({ label: 'Open Patch', name: `Open patch to ${files}`.slice(0, 200), variant: 'secondary', onClick: () => actions.openPatch(i.id, i.files) }),
  );
  if (i.canApplyAgain)
    bar.append(
      button({ label: 'Apply Again', name: `Apply again: patch to ${files}`.slice(0, 200), variant: 'secondary', onClick: () => actions.applyAgain(i.id) }),
    );
  if (canRevertNow(i))
    bar.append(button({ label: 'Revert', name: `Revert patch to ${files}`.slice(0, 200), variant: 'secondary', onClick: () => actions.revert(i.id) }));
  box.append(bar);
  markTextNodes(hunks, terms);
  li.append(box);
  return li;
}

/** A test run: its exit, command, time and trigger, the summary and the output's last lines. */
function renderTest(i: Extract<TimelineItem, { kind: 'test' }>, terms: readonly QueryTerm[]): HTMLElement {
  const li = item('test', i.id, i.time);
  const ok = i.exitCode === 0;
  const line = el('div', `pp-test ${ok ? 'pp-ok' : 'pp-error'}`);
  line.append(
    badge(i.exitCode === null ? 'stopped' : `exit ${i.exitCode}`, ok ? 'ok' : 'error'),
    document.createTextNode(` Tests: ${i.command} · ${duration(i.durationMs)} · ${i.trigger}`),
  );
  li.append(line);
  if (i.summary) li.append(el('div', 'pp-note', i.summary));
  if (i.outputTail) {
    const { root, body } = collapsible([document.createTextNode('Output (last lines)')]);
    body.append(el('pre', 'pp-code', i.outputTail));
    li.append(root);
  }
  markTextNodes(li, terms);
  return li;
}

/** A policy decision: the verdict, or the user's answer, on what the agent wanted to do. */
function renderPolicy(i: Extract<TimelineItem, { kind: 'policy' }>, terms: readonly QueryTerm[]): HTMLElement {
  const li = item('policy', i.id, i.time);
  const tone = i.verdict === 'deny' ? 'error' : i.verdict === 'allow' ? 'ok' : 'info';
  // The policy's verdict and the user's answer are two rows: "policy allows", then "you declined" reads right.
  const what = i.userAnswer
    ? i.verdict === 'allow'
      ? 'you approved'
      : 'you declined'
    : i.verdict === 'allow'
      ? 'policy allows'
      : i.verdict === 'ask'
        ? 'policy asks you'
        : 'policy denies';
  const line = el('div', 'pp-policy');
  line.append(badge(what, tone), document.createTextNode(` ${i.policyKind}: `), el('code', undefined, i.subject));
  li.append(line);
  if (!i.userAnswer) li.append(el('div', 'pp-note', `${i.rule ? `rule ${i.rule}: ` : ''}${i.reason}`));
  markTextNodes(li, terms);
  return li;
}

/** The run's summary, as markdown. */
function renderSummary(i: Extract<TimelineItem, { kind: 'summary' }>, actions: TimelineActions, terms: readonly QueryTerm[]): HTMLElement {
  const li = item('summary', i.id, i.time);
  li.append(el('span', 'pp-who', 'Summary of the run'));
  const body = el('div', 'pp-msg pp-assistant');
  body.append(renderMarkdown(i.text, actions.openLink));
  markTextNodes(body, terms);
  li.append(body);
  return li;
}

function renderHunk(h: HunkStateView): HTMLElement {
  const li = el('li', `pp-hunk pp-hunk-${h.state.replace(' ', '-')}`);
  const where = h.oldStart !== undefined ? ` lines ${h.oldStart}–${h.oldStart + Math.max(0, (h.oldLines ?? 1) - 1)}` : '';
  li.append(
    el('code', undefined, h.id),
    document.createTextNode(`${where}: `),
    el('strong', undefined, h.state === 'accepted' ? 'accepted, not written yet' : h.state),
  );
  if (h.reason) li.append(document.createTextNode(` (${h.state === 'rejected' ? 'your reason' : 'reason'}: ${h.reason})`));
  return li;
}

function renderObservation(o: ObservationView, terms: readonly QueryTerm[]): HTMLElement {
  const li = el('li', `pp-item pp-obs pp-obs-${o.type}`);
  li.dataset.id = o.id;
  li.tabIndex = -1;
  li.append(
    el('span', 'pp-who', o.type === 'qa' ? 'Q&A' : `Observation${o.tool ? ` (${o.tool})` : ''}`),
    document.createTextNode(' '),
    el('span', undefined, o.text),
  );
  if (o.path) li.append(document.createTextNode(' '), el('code', undefined, o.path));
  const { root, body } = collapsible([document.createTextNode(o.type === 'qa' ? 'Answer' : 'Result')], o.type === 'qa');
  body.append(el('pre', 'pp-code', o.detail));
  li.append(root);
  markTextNodes(li, terms);
  return li;
}

function firstArg(args: string): string {
  try {
    const v = JSON.parse(args) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const first = Object.values(v as Record<string, unknown>).find((x) => typeof x === 'string') as string | undefined;
      return oneLine(first ?? '', 80);
    }
  } catch {
    /* not JSON: show its start */
  }
  return oneLine(args, 80);
}
