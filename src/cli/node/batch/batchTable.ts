/** `patchpilot batch`'s table: one row per goal from its result event (status, tests, tokens, cost, exit). */
import type { ItemOutcome } from './batchRun';

const HEADERS = ['#', 'repo', 'goal', 'status', 'tests', 'tokens', 'cost', 'exit'];

export function batchTable(outcomes: ItemOutcome[]): string {
  const rows = outcomes.map(({ item, result, exitCode, error }) => [
    String(item.index),
    short(
      item.isUrl
        ? item.repo
            .replace(/\.git$/, '')
            .split(/[/:]/)
            .at(-1)!
        : item.repo.split('/').at(-1)!,
      24,
    ),
    short(item.goal, 40),
    result?.status ?? (error ? 'error' : 'unknown'),
    result?.tests ?? '-',
    (result?.tokens ?? 0).toLocaleString('en-US'),
    result?.costUsd == null ? '-' : `$${result.costUsd.toFixed(4)}`,
    String(exitCode),
  ]);
  const total = outcomes.reduce((n, o) => n + (o.result?.tokens ?? 0), 0);
  const costs = outcomes.map((o) => o.result?.costUsd);
  const cost = costs.every((c) => typeof c === 'number') ? `$${(costs as number[]).reduce((a, b) => a + b, 0).toFixed(4)}` : '-';
  rows.push(['', 'total', `${outcomes.length} goal${outcomes.length === 1 ? '' : 's'}`, '', '', total.toLocaleString('en-US'), cost, '']);
  const widths = HEADERS.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const numeric = new Set([0, 5, 6, 7]);
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

function short(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 3)}...` : one;
}
