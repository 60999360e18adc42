/**
 * What one test run (every configured command) says about the code, for the run's ledger
 * (orchestrator/testsOutcome.ts): which tests fail, which failed and then passed on a rerun
 * (flaky), whether a command failed without naming a test, and whether it ran part of the suite.
 */
import { outputAfterTests, stepAfterTests } from './failingStep';
import { classifyFailures } from './preExisting';
import { changedAmong, filesNamedByCheck } from './stepFiles';
import type { TestCommandResult } from './summary';
import { narrowedTestsPassed, narrowedVerdict } from './wholeTreeSteps';

export interface TestRunReport {
  /** Ran part of the suite (run_tests with files, a name or a filter): it does not stand for the whole. */
  narrowed: boolean;
  /** Failing tests, by the runner's names, that also failed on their rerun (or were not rerun). */
  failing: string[];
  /** The test file of a failing test, when the runner said it (pre-existing failures are matched by file too). */
  failingFiles?: Record<string, string>;
  /** Failing tests that no assertion failed: what ended their process (tap's per-file time limit, a signal). */
  endedBy?: Record<string, string>;
  /** Tests that failed and then passed when rerun alone. */
  flaky: string[];
  /** A command failed (exit code, timeout) without naming any failing test. */
  unnamedFailure: boolean;
  /** Commands the time limit killed (patchpilot.tests.timeoutSeconds), with how long they had run: said as such, not as an unnamed failure. */
  timedOut?: { command: string; seconds: number }[];
  /** Steps that are not the test runner (npm's `posttest` lint) that failed after the runner's counts said every test passed. */
  failedSteps?: string[];
  /** For each failed step, the files its output names (eslint, tsc, flake8, ruff) and those of them the run had changed. */
  stepFiles?: Record<string, { named: string[]; changed: string[] }>;
  /** A narrowed run: the files and name it was aimed at (a pass covers failures they name). */
  aimedAt: string[];
  /** The runners' counts over every command, when each command's output gave them. */
  counts?: { passed: number; failed: number };
  /** The files the run had changed when the tests ran, when the caller tracks them (preExisting.ts: whose a failure is). */
  changedFiles?: string[];
}

export interface ReportOptions {
  narrowed: boolean;
  aimedAt?: string[];
  flaky?: readonly string[];
  /** The files the run had changed when the tests ran (relative to root), to tell whose a failing lint is. */
  changedFiles?: Iterable<string>;
  root?: string;
}

export function reportOf(results: readonly TestCommandResult[], options: ReportOptions): TestRunReport {
  const flaky = new Set(options.flaky ?? []);
  const changed = options.changedFiles ? [...options.changedFiles] : undefined;
  const failures = results.flatMap((r) => r.summary.failures);
  const names = failures.map((f) => f.name);
  const files = Object.fromEntries(failures.filter((f) => f.file).map((f) => [f.name, f.file!]));
  const endedBy = Object.fromEntries(failures.filter((f) => f.endedBy).map((f) => [f.name, f.endedBy!]));
  const failedNaming = results.filter((r) => r.exitCode !== 0 && r.summary.failures.length === 0);
  const steps = failedNaming.map((r) => (r.timedOut ? undefined : stepAfterTests(r.output, r.summary)));
  const timedOut = results.filter((r) => r.timedOut).map((r) => ({ command: r.command, seconds: Math.round(r.durationMs / 1000) }));
  const stepFiles = Object.fromEntries(
    failedNaming.flatMap((r, i) => {
      const step = steps[i];
      // Without the changed files (a caller that does not track them) no step is judged by its files.
      const named = step && changed ? filesNamedByCheck(outputAfterTests(r.output), options.root) : [];
      return step && named.length ? [[step, { named, changed: changedAmong(named, changed ?? []) }]] : [];
    }),
  );
  return {
    narrowed: options.narrowed,
    failing: names.filter((n) => !flaky.has(n)),
    ...(Object.keys(files).length ? { failingFiles: files } : {}),
    ...(Object.keys(endedBy).length ? { endedBy } : {}),
    flaky: names.filter((n) => flaky.has(n)),
    unnamedFailure: steps.some((s) => s === undefined),
    ...(timedOut.length ? { timedOut } : {}),
    ...(steps.some((s) => s !== undefined) ? { failedSteps: steps.filter((s): s is string => s !== undefined) } : {}),
    ...(Object.keys(stepFiles).length ? { stepFiles } : {}),
    aimedAt: options.aimedAt ?? [],
    ...countsOf(results),
    ...(changed ? { changedFiles: changed } : {}),
  };
}

/** The runners' counts summed over the commands; none when one command's output had no counts. */
function countsOf(results: readonly TestCommandResult[]): { counts?: { passed: number; failed: number } } {
  if (!results.length || results.some((r) => r.summary.passed === undefined && r.summary.failed === undefined)) return {};
  const passed = results.reduce((n, r) => n + (r.summary.passed ?? 0), 0);
  const failed = results.reduce((n, r) => n + (r.summary.failed ?? 0), 0);
  return { counts: { passed, failed } };
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
  if (baseline.timedOut?.length)
    return `, as it did before the run (then ${baseline.timedOut.map((t) => `${t.command} timed out after ${t.seconds} s`).join(', ')})`;
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

export interface StepClasses {
  /** Failed now and not before the run, in files the run changed or naming none. */
  fresh: string[];
  /** The same step failed before the run. */
  asBefore: string[];
  /** Not reached before the run (its tests failed first), and failing only in files the run did not change: not the run's doing. */
  untouched: string[];
}

/**
 * Non-test steps that failed after every test passed, split by whether the same step failed before
 * the run; a step the baseline never reached (its tests failed first) whose output names only files
 * the run did not change (a lint of untouched code) was failing already, unseen.
 */
export function classifySteps(r: TestRunReport, baseline: TestRunReport | undefined): StepClasses {
  const before = new Set(baseline?.failedSteps ?? []);
  const notReached = !!baseline && (baseline.failing.length > 0 || baseline.unnamedFailure);
  const classes: StepClasses = { fresh: [], asBefore: [], untouched: [] };
  for (const s of r.failedSteps ?? []) {
    const files = r.stepFiles?.[s];
    if (before.has(s)) classes.asBefore.push(s);
    else if (notReached && files?.named.length && !files.changed.length) classes.untouched.push(s);
    else classes.fresh.push(s);
  }
  return classes;
}

/** A failed step with the files the run changed that its output names: "script "posttest" (lint) in files this run changed: a.js". */
export function stepWithFiles(r: TestRunReport, step: string): string {
  const changed = r.stepFiles?.[step]?.changed ?? [];
  return changed.length ? `${step} in files this run changed: ${changed.join(', ')}` : step;
}

/** "script "posttest" (lint) fails in files this run did not change: bin/semver.js; not reached before the run". */
function untouchedStep(r: TestRunReport, step: string): string {
  return `${step} fails in files this run did not change: ${(r.stepFiles?.[step]?.named ?? []).join(', ')}; not reached before the run`;
}

/**
 * The first line of a test run's result, measured against the baseline (the failures before the
 * run's first change) when there is one: "1 failure, pre-existing (test_x); no new failures"
 * rather than "tests FAILED" when nothing the run did broke a test.
 */
export function verdictOf(r: TestRunReport, baseline: TestRunReport | undefined): string {
  const flakyNote = r.flaky.length ? ` (flaky: ${r.flaky.join(', ')})` : '';
  if (reportPassed(r)) return r.flaky.length ? `tests passed on rerun${flakyNote}` : 'tests passed';
  if (narrowedTestsPassed(r)) return narrowedVerdict(r);
  const steps = classifySteps(r, baseline);
  if (!r.failing.length && !r.unnamedFailure) return stepsVerdict(r, steps, baseline) + flakyNote;
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
function stepsVerdict(r: TestRunReport, steps: StepClasses, baseline: TestRunReport | undefined): string {
  const asBefore = steps.asBefore.map((s) => `${s} failed, as it did before the run`);
  const fresh = steps.fresh.map((s) => `${stepWithFiles(r, s)} failed${stepComparedWithBaseline(baseline)}`);
  const untouched = steps.untouched.map((s) => untouchedStep(r, s));
  return `tests passed; ${[...fresh, ...asBefore, ...untouched].join('; ')}`;
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
