/**
 * Failures of a test run that can be placed in a file, for the Problems view (pure; no `vscode`).
 * testRuns/summary.ts names the failing tests; here each failure gets the first workspace location
 * (`file:line[:col]`, as in a stack frame or pytest's `file.py:12: AssertionError`) printed after
 * its name. Failures without one are left to the status bar and the output.
 */
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { TestSummary } from '../../../core/testRuns';

export interface TestProblem {
  /** Workspace-relative, forward slashes. */
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  message: string;
}

const LOCATION = /(?:file:\/\/)?((?:[A-Za-z]:)?[\w.\-/\\@+]+\.[A-Za-z][\w]*):(\d+)(?::(\d+))?/g;

export function locateFailures(output: string, summary: TestSummary, root: string): TestProblem[] {
  const text = stripVTControlCharacters(output);
  const problems: TestProblem[] = [];
  const starts = summary.failures.map((f) => Math.max(0, text.indexOf(f.name)));
  for (const [i, failure] of summary.failures.entries()) {
    const at = starts[i]!;
    // Only this failure's own section: up to where the next failure is named.
    const end = Math.min(at + 8000, ...starts.filter((s) => s > at));
    const where = firstWorkspaceLocation(text.slice(at, end), root);
    if (!where) continue;
    problems.push({ ...where, message: `${failure.name}${failure.message ? `: ${failure.message}` : ''}` });
  }
  return problems;
}

function firstWorkspaceLocation(text: string, root: string): Omit<TestProblem, 'message'> | undefined {
  for (const m of text.matchAll(LOCATION)) {
    const file = m[1]!;
    if (file.startsWith('node:') || file.includes('node_modules')) continue;
    const abs = path.resolve(root, file);
    const rel = path.relative(root, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    return { path: rel.split(path.sep).join('/'), line: Number(m[2]), column: m[3] ? Number(m[3]) : 1 };
  }
  return undefined;
}
