/** Markdown tables of the real-task benchmark, ready for docs/benchmarks.md. */

export function markdownTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (c ?? '').padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(headers), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
