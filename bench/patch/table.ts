/** Markdown tables for the terminal and the README. */
import type { Kind } from './kinds/types';
import { scoredCell, scoredTotals, type Cell, type Scored } from './score';
import type { Tool } from './tools/types';

export function pct(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`;
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

function markdown(header: string[], rows: string[][]): string {
  // Rows are as wide as the header; a ragged one is printed unpadded rather than failing.
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function cellColumns(cell: Cell, exactApplies: boolean): string[] {
  if (cell.n === 0) return ['n/a', 'n/a', 'n/a', 'n/a'];
  return [exactApplies ? pct(cell.exact, cell.n) : '—', String(cell.wrong), String(cell.refused), fmtMs(cell.medianMs)];
}

export function resultsTable(kinds: readonly Kind[], tools: readonly Tool[], scored: Scored, counts: Record<string, number>): string {
  const header = ['kind', 'n', ...tools.flatMap((t) => [`${t.name} exact`, 'wrong', 'refused', 'ms'])];
  const rows: string[][] = [];
  for (const kind of kinds) {
    const label = kind.group === 'must-apply' ? kind.name : `${kind.name} (${kind.expectation})`;
    rows.push([
      label,
      String(counts[kind.name] ?? 0),
      ...tools.flatMap((t) => cellColumns(scoredCell(scored, kind.name, t.name), kind.expectation !== 'refuse')),
    ]);
  }
  rows.push([
    '**must-apply total**',
    String(Object.values(scored.totals)[0]?.mustApply.n ?? 0),
    ...tools.flatMap((t) => cellColumns(scoredTotals(scored, t.name).mustApply, true)),
  ]);
  rows.push([
    '**all cases: wrong**',
    String(Object.values(scored.totals)[0]?.all.n ?? 0),
    ...tools.flatMap((t) => {
      const c = scoredTotals(scored, t.name).all;
      return ['', `**${c.wrong}**`, String(c.refused), fmtMs(c.medianMs)];
    }),
  ]);
  return markdown(header, rows);
}

export function legend(tools: readonly Tool[]): string {
  const lines = tools.map((t) => `- \`${t.name}\`: ${t.command}${t.spawns ? ' — ms includes spawning the process' : ''}`);
  return [
    ...lines,
    '- exact = output bytes equal the expected file set; wrong = reported success with any other output (or applied a must-refuse case); refused = reported failure; n/a = the tool cannot read that format.',
    "- ms = median per case. PatchPilot: the engine's in-process time from `patch eval`; jsdiff: in-process; git/GNU patch: wall time of one spawned process (file writing excluded).",
  ].join('\n');
}

export { markdown };
