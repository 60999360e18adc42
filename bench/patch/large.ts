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
import { filesEqual } from './score';
import { fmtMs, markdown } from './table';
import type { Tool } from './tools/types';

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
    return out.replace(/^diff --git a\/old b\/new$/m, `diff --git a/${FILE} b/${FILE}`).replace(/^--- a\/old$/m, `--- a/${FILE}`).replace(/^\+\+\+ b\/new$/m, `+++ b/${FILE}`);
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

/** Runs every tool on each large case, one case at a time (so no tool competes with another for the CPU). */
export async function runLarge(seed: number, tools: readonly Tool[]): Promise<LargeRow[]> {
  const rows: LargeRow[] = [];
  for (const c of largeCases(seed)) {
    const row: LargeRow = { label: c.variant!, results: {} };
    for (const tool of tools) {
      const r = (await tool.runAll([c])).get(c.id);
      const outcome = !r || r.status === 'refused' ? 'refused' : r.files && filesEqual(r.files, c.expected!) ? 'exact' : 'wrong';
      row.results[tool.name] = { ms: r?.ms ?? NaN, outcome, ...(r?.error ? { error: r.error } : {}) };
    }
    rows.push(row);
  }
  return rows;
}

export function largeTable(rows: readonly LargeRow[], tools: readonly Tool[]): string {
  const header = ['large patch', ...tools.flatMap((t) => [`${t.name} ms`, 'result'])];
  const body = rows.map((r) => [r.label, ...tools.flatMap((t) => [fmtMs(r.results[t.name]!.ms), r.results[t.name]!.outcome])]);
  return markdown(header, body);
}
