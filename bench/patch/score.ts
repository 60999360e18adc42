/** Scores each (case, tool) result and aggregates per kind: exact, wrong (the cardinal sin), refused. */
import type { BenchCase, Kind } from './kinds/types';
import type { Tool, ToolResult } from './tools/types';

export type Outcome = 'exact' | 'wrong' | 'refused' | 'n/a';

export function filesEqual(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

export function outcome(c: BenchCase, r: ToolResult | undefined, supported: boolean): Outcome {
  if (!supported) return 'n/a';
  if (!r || r.status === 'refused') return 'refused';
  if (c.expectation === 'refuse' || c.expected === null) return 'wrong';
  return r.files && filesEqual(r.files, c.expected) ? 'exact' : 'wrong';
}

export interface Cell {
  /** Cases this tool could read. */
  n: number;
  exact: number;
  wrong: number;
  refused: number;
  medianMs: number;
}

export function median(values: number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = v.length >> 1;
  const [lower, upper] = [v[mid - 1], v[mid]];
  if (upper === undefined) return NaN;
  return v.length % 2 || lower === undefined ? upper : (lower + upper) / 2;
}

export interface Scored {
  /** outcomes[toolName][caseId] */
  outcomes: Record<string, Record<string, Outcome>>;
  /** cells[kindName][toolName] */
  cells: Record<string, Record<string, Cell>>;
  /** Per tool: over every must-apply case it can read, and over the whole corpus. */
  totals: Record<string, { mustApply: Cell; all: Cell }>;
}

function cellOf(cases: BenchCase[], tool: Tool, results: Map<string, ToolResult>, outs: Record<string, Outcome>): Cell {
  const readable = cases.filter((c) => outs[c.id] !== 'n/a');
  const count = (o: Outcome): number => readable.filter((c) => outs[c.id] === o).length;
  return {
    n: readable.length,
    exact: count('exact'),
    wrong: count('wrong'),
    refused: count('refused'),
    medianMs: median(readable.map((c) => results.get(c.id)?.ms ?? NaN)),
  };
}

export function score(cases: BenchCase[], kinds: readonly Kind[], tools: readonly Tool[], results: Record<string, Map<string, ToolResult>>): Scored {
  const outcomes: Scored['outcomes'] = {};
  const cells: Scored['cells'] = {};
  const totals: Scored['totals'] = {};
  for (const tool of tools) {
    const res = results[tool.name];
    if (!res) throw new Error(`no results for tool ${tool.name}`);
    const outs: Record<string, Outcome> = {};
    for (const c of cases) outs[c.id] = outcome(c, res.get(c.id), tool.supports(c));
    outcomes[tool.name] = outs;
    for (const kind of kinds) {
      (cells[kind.name] ??= {})[tool.name] = cellOf(
        cases.filter((c) => c.kind === kind.name),
        tool,
        res,
        outs,
      );
    }
    const mustApplyKinds = new Set(kinds.filter((k) => k.group === 'must-apply').map((k) => k.name));
    totals[tool.name] = {
      mustApply: cellOf(
        cases.filter((c) => mustApplyKinds.has(c.kind)),
        tool,
        res,
        outs,
      ),
      all: cellOf(cases, tool, res, outs),
    };
  }
  return { outcomes, cells, totals };
}

/** What one tool scored on one kind; a clear error if that pair was never scored (a caller's bug). */
export function scoredCell(scored: Scored, kind: string, tool: string): Cell {
  const cell = scored.cells[kind]?.[tool];
  if (!cell) throw new Error(`no score for kind ${kind} with tool ${tool}`);
  return cell;
}

export function scoredTotals(scored: Scored, tool: string): Scored['totals'][string] {
  const totals = scored.totals[tool];
  if (!totals) throw new Error(`no totals for tool ${tool}`);
  return totals;
}

export function scoredOutcomes(scored: Scored, tool: string): Record<string, Outcome> {
  const outcomes = scored.outcomes[tool];
  if (!outcomes) throw new Error(`no outcomes for tool ${tool}`);
  return outcomes;
}
