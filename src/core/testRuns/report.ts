/**
 * What one test run (every configured command) says about the code, for the run's ledger
 * (orchestrator/testsOutcome.ts): which tests fail, which failed and then passed on a rerun
 * (flaky), whether a command failed without naming a test, and whether it ran part of the suite.
 */
import type { TestCommandResult } from './summary';

export interface TestRunReport {
  /** Ran part of the suite (run_tests with files, a name or a filter): it does not stand for the whole. */
  narrowed: boolean;
  /** Failing tests, by the runner's names, that also failed on their rerun (or were not rerun). */
  failing: string[];
  /** Tests that failed and then passed when rerun alone. */
  flaky: string[];
  /** A command failed (exit code, timeout) without naming any failing test. */
  unnamedFailure: boolean;
  /** A narrowed run: the files and name it was aimed at (a pass covers failures they name). */
  aimedAt: string[];
}

export function reportOf(results: readonly TestCommandResult[], options: { narrowed: boolean; aimedAt?: string[]; flaky?: readonly string[] }): TestRunReport {
  const flaky = new Set(options.flaky ?? []);
  const names = results.flatMap((r) => r.summary.failures.map((f) => f.name));
  return {
    narrowed: options.narrowed,
    failing: names.filter((n) => !flaky.has(n)),
    flaky: names.filter((n) => flaky.has(n)),
    unnamedFailure: results.some((r) => r.exitCode !== 0 && r.summary.failures.length === 0),
    aimedAt: options.aimedAt ?? [],
  };
}

export function reportPassed(r: TestRunReport): boolean {
  return r.failing.length === 0 && !r.unnamedFailure;
}

/**
 * The first line of a test run's result, measured against the baseline (the failures before the
 * run's first change) when there is one: "1 failure, pre-existing (test_x); no new failures"
 * rather than "tests FAILED" when nothing the run did broke a test.
 */
export function verdictOf(r: TestRunReport, baseline: TestRunReport | undefined): string {
  const flakyNote = r.flaky.length ? ` (flaky: ${r.flaky.join(', ')})` : '';
  if (reportPassed(r)) return r.flaky.length ? `tests passed on rerun${flakyNote}` : 'tests passed';
  if (!baseline) return 'tests FAILED';
  const before = new Set(baseline.failing);
  const preExisting = r.failing.filter((n) => before.has(n));
  const fresh = r.failing.filter((n) => !before.has(n));
  const unnamedNew = r.unnamedFailure && !baseline.unnamedFailure;
  const pre = preExisting.length ? `${plural(preExisting.length, 'failure')}, pre-existing (${preExisting.join(', ')})` : '';
  if (fresh.length || unnamedNew) {
    const what = fresh.length
      ? `${plural(fresh.length, 'new failure')} (${fresh.join(', ')})`
      : 'a command failed without naming a test, and did not before the run';
    return `tests FAILED: ${what}${pre ? `; ${pre}` : ''}${flakyNote}`;
  }
  const unnamed = r.unnamedFailure ? 'a command failed without naming a test, as it did before the run' : '';
  return `${[pre, unnamed].filter(Boolean).join('; ')}; no new failures${flakyNote}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
