import type { UsageDayView, UsageTotalsView } from '../../core/history';

const usd = (v: number | null) => (v === null ? '-' : `$${v.toFixed(4)}`);

/** A table of usage by source: "  main         3 req    1,200 in (900 cached)    300 out  $0.0123". */
export function usageTable(rows: readonly UsageTotalsView[], indent = '  '): string[] {
  if (!rows.length) return [`${indent}(no requests recorded by source)`];
  const width = Math.max(6, ...rows.map((r) => r.source.length));
  const n = (v: number) => v.toLocaleString('en-US');
  const lines = rows.map(
    (r) =>
      `${indent}${r.source.padEnd(width)}  ${String(r.requests).padStart(4)} req  ${n(r.promptTokens).padStart(10)} in${r.cachedTokens ? ` (${n(r.cachedTokens)} cached)` : ''}  ${n(r.completionTokens).padStart(8)} out  ${usd(r.costUsd)}${r.unpricedRequests ? ` (+${r.unpricedRequests} unpriced)` : ''}`,
  );
  const total = rows.reduce(
    (t, r) => ({
      requests: t.requests + r.requests,
      prompt: t.prompt + r.promptTokens,
      cached: t.cached + (r.cachedTokens ?? 0),
      completion: t.completion + r.completionTokens,
      cost: r.costUsd === null ? t.cost : (t.cost ?? 0) + r.costUsd,
    }),
    { requests: 0, prompt: 0, cached: 0, completion: 0, cost: null as number | null },
  );
  if (rows.length > 1)
    lines.push(
      `${indent}${'total'.padEnd(width)}  ${String(total.requests).padStart(4)} req  ${n(total.prompt).padStart(10)} in${total.cached ? ` (${n(total.cached)} cached)` : ''}  ${n(total.completion).padStart(8)} out  ${usd(total.cost)}`,
    );
  return lines;
}

/** Per day, newest first: the day's total, then its sources. */
export function usageDaysText(days: readonly UsageDayView[]): string {
  if (!days.length) return 'no model usage recorded in that period\n';
  const out: string[] = [];
  for (const d of days) {
    out.push(`${d.day}  ${d.totalTokens.toLocaleString('en-US')} tokens  ${usd(d.costUsd)}`);
    out.push(...usageTable(d.sources, '    '));
  }
  return out.join('\n') + '\n';
}
