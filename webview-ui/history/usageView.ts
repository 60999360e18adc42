/**
 * Model usage, drawn: a table of requests, tokens and cost per source (main, fast, compaction,
 * subagent N), and a small bar chart of the tokens beside it. The chart is an image to assistive
 * technology (role img, its figures in its name); the table carries the same figures as text.
 */
import type { UsageDayRowView, UsageRowView } from '../../src/protocol/history';
import { el } from '../shared/components';
import { count } from './format';

const usd = (v: number | null) => (v === null ? '–' : `$${v < 1 ? v.toFixed(4) : v.toFixed(2)}`);
const tokensOf = (r: UsageRowView) => r.promptTokens + r.completionTokens;

/** A section with a heading, the table (its caption names it) and the chart. */
export function renderUsage(rows: readonly UsageRowView[], title: string): HTMLElement {
  const section = el('section', 'pp-usage');
  section.setAttribute('aria-label', title);
  section.append(el('h3', undefined, title));
  if (!rows.length) {
    section.append(el('p', 'pp-note', 'No model requests recorded by source.'));
    return section;
  }
  section.append(usageTable(rows, title), usageChart(rows, title));
  return section;
}

function usageTable(rows: readonly UsageRowView[], caption: string): HTMLTableElement {
  const table = el('table', 'pp-usage-table');
  table.append(el('caption', 'pp-sr-only', caption));
  const head = el('tr');
  for (const h of ['Source', 'Requests', 'Tokens in', 'Tokens out', 'Cost']) {
    const th = el('th', undefined, h);
    th.scope = 'col';
    head.append(th);
  }
  table.append(el('thead'), el('tbody'));
  table.tHead!.append(head);
  for (const r of rows) {
    const tr = el('tr');
    const th = el('th', undefined, r.source);
    th.scope = 'row';
    tr.append(
      th,
      el('td', undefined, count(r.requests)),
      el('td', undefined, count(r.promptTokens)),
      el('td', undefined, count(r.completionTokens)),
      el('td', undefined, `${usd(r.costUsd)}${r.unpricedRequests ? ` (+${r.unpricedRequests} unpriced)` : ''}`),
    );
    table.tBodies[0]!.append(tr);
  }
  return table;
}

/** Horizontal bars, one per source, as long as its share of the largest. */
function usageChart(rows: readonly UsageRowView[], title: string): HTMLElement {
  const chart = el('div', 'pp-usage-chart');
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `Chart of tokens by source (${title}): ${rows.map((r) => `${r.source} ${count(tokensOf(r))}`).join(', ')}`);
  const max = Math.max(1, ...rows.map(tokensOf));
  for (const r of rows) {
    const line = el('div', 'pp-usage-bar-line');
    line.setAttribute('aria-hidden', 'true');
    const bar = el('span', 'pp-usage-bar');
    bar.style.width = `${Math.max(1, Math.round((tokensOf(r) / max) * 100))}%`;
    line.append(el('span', 'pp-usage-label', r.source), bar, el('span', 'pp-note', count(tokensOf(r))));
    chart.append(line);
  }
  return chart;
}

/** The per-day view: a heading, then each day (newest first) with its total and its sources. */
export function renderUsageDays(days: readonly UsageDayRowView[], span: number): HTMLElement {
  const root = el('article', 'pp-usage-days');
  root.setAttribute('aria-label', 'Model usage by day');
  const title = el('h2', 'pp-goal', `Model usage by day (last ${span} days)`);
  title.tabIndex = -1;
  root.append(title);
  if (!days.length) root.append(el('p', 'pp-note', 'No model requests recorded in this period.'));
  for (const d of days) root.append(renderUsage(d.sources, `${d.day}: ${count(d.totalTokens)} tokens, ${usd(d.costUsd)}`));
  return root;
}
