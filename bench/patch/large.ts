/**
 * Large patches, side by side with git apply and GNU patch in the same run: a 500-hunk patch on a
 * 100,000-line file and a 2,000-hunk patch on a 400,000-line file, written by `git diff` (a
 * function heading on every hunk). The engine's cost must grow with patch + file, not their product.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchCase } from './kinds/types';
import { editLargeFile, generateLargeFile } from './perf';
import { Rng } from './rng';
import { filesEqual, median } from './score';
import { fmtMs, markdown } from './table';
import type { Tool, ToolResult } from './tools/types';

export const LARGE_SIZES = [
  { lines: 100_000, hunks: 500 },
  { lines: 400_000, hunks: 2_000 },
] as const;

const FILE = 'src/large.js';

export interface LargeRow {
  label: string;
  /** Per tool: wall or engine ms and whether the bytes came out exact. */
  results: Record<string, { ms: number; outcome: 'exact' | 'wrong' | 'refused'; error?: string }>;
}

/** What `git diff` writes for old -> new of FILE. */
function gitDiff(oldText: string, newText: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-large-'));
  try {
    writeFileSync(path.join(dir, 'old'), oldText);
    writeFileSync(path.join(dir, 'new'), newText);
    let out = '';
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', 'old', 'new'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
    } catch (e) {
      out = (e as { stdout?: string }).stdout ?? ''; // exit 1: the files differ
    }
    return out
      .replace(/^diff --git a\/old b\/new$/m, `diff --git a/${FILE} b/${FILE}`)
      .replace(/^--- a\/old$/m, `--- a/${FILE}`)
      .replace(/^\+\+\+ b\/new$/m, `+++ b/${FILE}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function largeCases(seed: number): BenchCase[] {
  return LARGE_SIZES.map(({ lines, hunks }) => {
    const rng = Rng.forLabel(seed, `large-${lines}`);
    const old = generateLargeFile(rng, lines);
    const oldText = old.join('\n') + '\n';
    const newText = editLargeFile(rng, old, hunks).join('\n') + '\n';
    return {
      id: `large-${hunks}-hunks-${lines}-lines`,
      kind: 'large',
      format: 'unified',
      expectation: 'exact',
      files: { [FILE]: oldText },
      patch: gitDiff(oldText, newText),
      expected: { [FILE]: newText },
      source: 'generated',
      variant: `${hunks} hunks on ${lines} lines`,
    } satisfies BenchCase;
  });
}

/** Repetitions per tool and case; the median is reported and every repetition must be exact. */
export const LARGE_REPS = 3;

/**
 * Runs every tool on each large case, one run at a time (no tool competes with another for the
 * CPU). PatchPilot gets the repetitions in one eval process, as its other timings (a long-lived
 * extension host is warm); git and GNU patch are one process per run anyway.
 */
export async function runLarge(seed: number, tools: readonly Tool[]): Promise<LargeRow[]> {
  const rows: LargeRow[] = [];
  for (const c of largeCases(seed)) {
    const row: LargeRow = { label: c.variant!, results: {} };
    for (const tool of tools) {
      const reps = Array.from({ length: LARGE_REPS }, (_, i) => ({ ...c, id: `${c.id}#${i}` }));
      const results: (ToolResult | undefined)[] = [];
      if (tool.spawns) for (const r of reps) results.push((await tool.runAll([r])).get(r.id));
      else {
        const all = await tool.runAll(reps);
        for (const r of reps) results.push(all.get(r.id));
      }
      const outcomes = results.map((r) => (!r || r.status === 'refused' ? 'refused' : r.files && filesEqual(r.files, c.expected!) ? 'exact' : 'wrong'));
      const outcome = outcomes.includes('wrong') ? 'wrong' : outcomes.includes('refused') ? 'refused' : 'exact';
      const error = results.find((r) => r?.error)?.error;
      row.results[tool.name] = { ms: median(results.map((r) => r?.ms ?? NaN)), outcome, ...(error ? { error } : {}) };
    }
    rows.push(row);
  }
  return rows;
}

export function largeTable(rows: readonly LargeRow[], tools: readonly Tool[]): string {
  const header = ['large patch', ...tools.flatMap((t) => [`${t.name} ms (median of ${LARGE_REPS})`, 'result'])];
  const body = rows.map((r) => [r.label, ...tools.flatMap((t) => [fmtMs(r.results[t.name]!.ms), r.results[t.name]!.outcome])]);
  return markdown(header, body);
}

/**
 * The large cases' targets: every one exact, and cost that grows with patch + file: 4x the hunks on
 * 4x the lines may cost up to 8x (linear is 4x plus noise; hunks x lines would be 16x).
 */
export function largeTargets(rows: readonly LargeRow[] | undefined): string[][] {
  if (!rows || rows.length === 0) return [];
  const mine = rows.map((r) => r.results.patchpilot!);
  const exact = mine.every((m) => m.outcome === 'exact');
  const [small, big] = [mine[0]!, mine[mine.length - 1]!];
  const ratio = big.ms / small.ms;
  return [
    ['large patches exact', exact ? 'PASS' : 'FAIL', rows.map((r) => `${r.label}: ${r.results.patchpilot!.outcome}`).join('; ')],
    [
      'large patches: 4x hunks on 4x lines costs < 8x',
      Number.isFinite(ratio) && ratio < 8 ? 'PASS' : 'FAIL',
      `${fmtMs(small.ms)} ms -> ${fmtMs(big.ms)} ms (${ratio.toFixed(1)}x)`,
    ],
  ];
}
