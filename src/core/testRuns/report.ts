/**
 * What one test run (every configured command) says about the code, for the run's ledger
 * (orchestrator/testsOutcome.ts): which tests fail, which failed and then passed on a rerun
 * (flaky), whether a command failed without naming a test, and whether it ran part of the suite.
 */
import { stepAfterTests } from './failingStep';
import { classifyFailures } from './preExisting';
import type { TestCommandResult } from './summary';

export interface TestRunReport {
  /** Ran part of the suite (run_tests with files, a name or a filter): it does not stand for the whole. */
  narrowed: boolean;
  /** Failing tests, by the runner's names, that also failed on their rerun (or were not rerun). */
  failing: string[];
  /** The test file of a failing test, when the runner said it (pre-existing failures are matched by file too). */
  failingFiles?: Record<string, string>;
  /** Tests that failed and then passed when rerun alone. */
  flaky: string[];
  /** A command failed (exit code, timeout) without naming any failing test. */
  unnamedFailure: boolean;
  /** Steps that are not the test runner (npm's `posttest` lint) that failed after the runner's counts said every test passed. */
  failedSteps?: string[];
  /** A narrowed run: the files and name it was aimed at (a pass covers failures they name). */
  aimedAt: string[];
}

export function reportOf(results: readonly TestCommandResult[], options: { narrowed: boolean; aimedAt?: string[]; flaky?: readonly string[] }): TestRunReport {
  const flaky = new Set(options.flaky ?? []);
  const failures = results.flatMap((r) => r.summary.failures);
  const names = failures.map((f) => f.name);
  const files = Object.fromEntries(failures.filter((f) => f.file).map((f) => [f.name, f.file!]));
  const failedNaming = results.filter((r) => r.exitCode !== 0 && r.summary.failures.length === 0);
  const steps = failedNaming.map((r) => (r.timedOut ? undefined : stepAfterTests(r.output, r.summary)));
  return {
    narrowed: options.narrowed,
    failing: names.filter((n) => !flaky.has(n)),
    ...(Object.keys(files).length ? { failingFiles: files } : {}),
    flaky: names.filter((n) => flaky.has(n)),
    unnamedFailure: steps.some((s) => s === undefined),
    ...(steps.some((s) => s !== undefined) ? { failedSteps: steps.filter((s): s is string => s !== undefined) } : {}),
    aimedAt: options.aimedAt ?? [],
  };
}

export function reportPassed(r: TestRunReport): boolean {
  return r.failing.length === 0 && !r.unnamedFailure && !r.failedSteps?.length;
}

/**
 * The clause that says how a command failing without naming a test compares with the baseline,
 * true for the baseline's actual state: it passed, it failed naming tests, or there is none.
 */
export function unnamedComparedWithBaseline(baseline: TestRunReport | undefined): string {
  if (!baseline) return '';
  if (baseline.unnamedFailure) return ', as it did before the run';
  if (reportPassed(baseline)) return ', and did not before the run (the tests passed then)';
  const before = [
    baseline.failing.length
      ? `naming ${plural(baseline.failing.length, 'test')} (${baseline.failing.slice(0, 3).join(', ')}${baseline.failing.length > 3 ? ', ...' : ''})`
      : '',
    baseline.failedSteps?.length ? `at ${baseline.failedSteps.join('; ')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `; before the run it failed too, but ${before}`;
}

/** Non-test steps that failed after every test passed, split by whether the same step failed before the run. */
export function classifySteps(r: TestRunReport, baseline: TestRunReport | undefined): { fresh: string[]; asBefore: string[] } {
  const before = new Set(baseline?.failedSteps ?? []);
  const steps = r.failedSteps ?? [];
  return { fresh: steps.filter((s) => !before.has(s)), asBefore: steps.filter((s) => before.has(s)) };
}

/**
 * The first line of a test run's result, measured against the baseline (the failures before the
 * run's first change) when there is one: "1 failure, pre-existing (test_x); no new failures"
 * rather than "tests FAILED" when nothing the run did broke a test.
 */
export function verdictOf(r: TestRunReport, baseline: TestRunReport | undefined): string {
  const flakyNote = r.flaky.length ? ` (flaky: ${r.flaky.join(', ')})` : '';
  if (reportPassed(r)) return r.flaky.length ? `tests passed on rerun${flakyNote}` : 'tests passed';
  const steps = classifySteps(r, baseline);
  if (!r.failing.length && !r.unnamedFailure) return stepsVerdict(steps, baseline) + flakyNote;
  if (!baseline) return 'tests FAILED';
  const classes = classifyFailures(r, baseline);
  const unnamedNew = r.unnamedFailure && !baseline.unnamedFailure;
  const known = [
    classes.preExisting.length ? `${plural(classes.preExisting.length, 'failure')}, pre-existing (${classes.preExisting.join(', ')})` : '',
    classes.inFailedFile.length
      ? `${plural(classes.inFailedFile.length, 'failure')} in a file that already failed before the run (${classes.inFailedFile.join(', ')})`
      : '',
  ].filter(Boolean);
  if (classes.fresh.length || unnamedNew) {
    const what = classes.fresh.length
      ? `${plural(classes.fresh.length, 'new failure')} (${classes.fresh.join(', ')})`
      : `a command failed without naming a test${unnamedComparedWithBaseline(baseline)}`;
    return `tests FAILED: ${[what, ...known].join('; ')}${flakyNote}`;
  }
  const unnamed = r.unnamedFailure ? 'a command failed without naming a test, as it did before the run' : '';
  return `${[...known, unnamed].filter(Boolean).join('; ')}; no new failures${flakyNote}`;
}

/** Every test passed and only a step that is not the test runner failed (a lint after the tests): "tests passed; script "posttest" (lint) failed". */
function stepsVerdict(steps: { fresh: string[]; asBefore: string[] }, baseline: TestRunReport | undefined): string {
  const asBefore = steps.asBefore.map((s) => `${s} failed, as it did before the run`);
  const fresh = steps.fresh.map((s) => `${s} failed${stepComparedWithBaseline(baseline)}`);
  return `tests passed; ${[...fresh, ...asBefore].join('; ')}`;
}

/** How a step that failed now compares with the baseline, true for what the baseline did. */
function stepComparedWithBaseline(baseline: TestRunReport | undefined): string {
  if (!baseline) return '';
  if (reportPassed(baseline)) return ', and did not before the run';
  if (baseline.failedSteps?.length) return `; before the run ${baseline.failedSteps.join('; ')} failed instead`;
  return '; before the run the command failed earlier (its tests), so this step was not reached then';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
