/**
 * The rows of the panel's two lists: runs grouped by day (a day header, then its runs, newest
 * first) and search hits. Row content is text only; a hit's snippet gets its matched words marked.
 */
import type { HitView, RunRowView } from '../../src/protocol/history';
import type { RunEndStatus } from '../../src/protocol/agentEvents';
import { runEndView } from '../../src/protocol/runEnd';
import { badge, el } from '../shared/components';
import { clock, cost, date, duration, oneLine, plural, tokens } from './format';
import { marked } from './highlight';
import { dayKey, dayLabel } from './timeFilter';
import type { VirtualRow } from './virtualList';

export const RUN_ROW_HEIGHT = 58;
export const DAY_ROW_HEIGHT = 28;
export const HIT_ROW_HEIGHT = 84;

export type ListRow =
  (VirtualRow & { kind: 'day'; label: string }) | (VirtualRow & { kind: 'run'; run: RunRowView; day: string }) | (VirtualRow & { kind: 'hit'; hit: HitView });

export function runRows(runs: readonly RunRowView[], now: number): ListRow[] {
  const out: ListRow[] = [];
  let lastDay: number | undefined;
  let label = '';
  for (const run of runs) {
    const day = dayKey(run.startedAt);
    if (day !== lastDay) {
      lastDay = day;
      label = dayLabel(run.startedAt, now);
      out.push({ kind: 'day', key: `day-${day}`, height: DAY_ROW_HEIGHT, selectable: false, label });
    }
    out.push({ kind: 'run', key: run.id, height: RUN_ROW_HEIGHT, selectable: true, run, day: label });
  }
  return out;
}

export function hitRows(hits: readonly HitView[]): ListRow[] {
  return hits.map((hit, i) => ({ kind: 'hit', key: `${hit.kind}-${hit.id}-${i}`, height: HIT_ROW_HEIGHT, selectable: true, hit }));
}

const TONE: Record<string, 'ok' | 'error' | 'info'> = {
  finished: 'ok',
  limit: 'error',
  failed: 'error',
  blocked: 'error',
  interrupted: 'error',
  stopped: 'error',
  cancelled: 'info',
  running: 'info',
};
const KIND_LABEL: Record<HitView['kind'], string> = {
  run: 'goal',
  step: 'step',
  policy: 'policy',
  observation: 'observation',
  qa: 'Q&A',
  patch: 'patch',
  test: 'test',
};

export function renderRow(row: ListRow): HTMLElement {
  if (row.kind === 'day') return el('div', 'pp-day', row.label);
  if (row.kind === 'run') {
    const r = row.run;
    const d = el('div', 'pp-row pp-run-row');
    const at = clock(r.startedAt);
    const when = `${at}${r.endedAt !== null ? ` · ${duration(r.endedAt - r.startedAt)}` : ' · in progress'}`;
    // The accessible name starts with the goal: what a person scans for, and what tests select on.
    // A finished run says how it left the tests (a finish over failing tests is not a green "finished");
    // one that ran tests and edited nothing says how they went, as the chat's end line does.
    const end = r.tests ? runEndView(r.status as RunEndStatus, r.tests, r.withoutEdits) : { label: r.status, tone: TONE[r.status] ?? 'info' };
    d.setAttribute('aria-label', `${oneLine(r.goal, 200)}, ${end.label}, ${row.day} ${at}`);
    const top = el('div', 'pp-row-top');
    top.append(el('span', 'pp-row-goal', oneLine(r.goal, 200)));
    const bottom = el('div', 'pp-row-meta');
    bottom.append(badge(end.label, end.tone));
    if (r.parentRunId) bottom.append(document.createTextNode(' '), badge('subagent', 'info'));
    const figures = [
      when,
      plural(r.steps, 'step'),
      r.patches ? plural(r.patches, 'patch', 'patches') : '',
      r.testRuns ? plural(r.testRuns, 'test run') : '',
      r.tokensIn + r.tokensOut ? `${tokens(r.tokensIn + r.tokensOut)} tokens` : '',
      cost(r.costUsd),
      r.models.join(' / '),
    ].filter(Boolean);
    bottom.append(document.createTextNode(` ${figures.join(' · ')}`));
    d.append(top, bottom);
    return d;
  }
  const h = row.hit;
  const d = el('div', 'pp-row pp-hit-row');
  d.setAttribute('aria-label', `${h.title}: ${oneLine(h.snippet, 160)}${h.runGoal ? `, in run: ${oneLine(h.runGoal, 120)}` : ''}`);
  const top = el('div', 'pp-row-top');
  top.append(
    badge(KIND_LABEL[h.kind], 'info'),
    document.createTextNode(' '),
    el('span', 'pp-hit-title', h.title),
    el('span', 'pp-row-when', ` ${date(h.time)} ${clock(h.time)}`),
  );
  const snippet = el('div', 'pp-snippet');
  snippet.append(marked(h.snippet, h.ranges));
  const goal = el('div', 'pp-row-meta', h.runGoal ? `Run: ${oneLine(h.runGoal, 160)}` : 'Not part of a run');
  d.append(top, snippet, goal);
  return d;
}
