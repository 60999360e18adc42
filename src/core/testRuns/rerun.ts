/**
 * The rerun of a failing whole-suite run's failures, once, to tell a flake from a failure: which
 * failures deserve it and what the rerun said about each (test/unit/testRuns/rerun.test.ts).
 * A failure the baseline already explains is not rerun: it is pre-existing either way, and a rerun
 * costs as much as its file's tests. The rerun's names can be coarser than the first run's (node-tap
 * names a file that timed out, or failed with "no plan", after the file alone), so a failure
 * failed again when the rerun names it or names a failure in its file; a rerun that exits non-zero
 * never makes every failure flaky, unless it failed only at a step that judges the whole tree (the
 * coverage threshold of part of the suite, a lint of files the run did not change: wholeTreeSteps.ts).
 */
import { classifyFailures, fileOfFailure } from './preExisting';
import { reportOf, type ReportOptions, type TestRunReport } from './report';
import { narrowedTestsPassed } from './wholeTreeSteps';
import type { TestFailure } from './runners';
import type { TestCommandResult } from './summary';

/**
 * The failures of `first` that no failure before the run explains (all of them without a baseline);
 * `changedFiles`: the run's, so that a failure in a cut-off file the run touched is rerun (preExisting.ts).
 */
export function failuresWorthRerun(first: TestCommandResult, baseline: TestRunReport | undefined, changedFiles?: Iterable<string>): TestFailure[] {
  const failures = first.summary.failures;
  if (!baseline) return failures;
  const fresh = new Set(classifyFailures(reportOf([first], { narrowed: false, ...(changedFiles ? { changedFiles } : {}) }), baseline).fresh);
  return failures.filter((f) => fresh.has(f.name));
}

export interface RerunVerdict {
  /** First-run failures that passed on the rerun. */
  flaky: string[];
  /** What the rerun named as failing (its own names). */
  failedAgain: string[];
}

/**
 * Which of `rerun` (the first run's failures that were rerun) passed on `again`. Undefined when the
 * rerun tells nothing apart: it exited non-zero without a failure in any rerun test's file or name.
 */
export function rerunVerdict(
  rerun: readonly TestFailure[],
  again: TestCommandResult,
  options: Pick<ReportOptions, 'changedFiles' | 'root'> = {},
): RerunVerdict | undefined {
  const failedAgain = again.summary.failures.map((f) => f.name);
  const againReport = reportOf([again], { narrowed: true, ...options });
  const names = new Set(failedAgain);
  const files = new Set(failedAgain.map((n) => fileOfFailure(againReport, n)).filter((f): f is string => !!f));
  const stillFails = (f: TestFailure) => {
    if (names.has(f.name)) return true;
    const file = fileOfFailure({ failingFiles: f.file ? { [f.name]: f.file } : {} }, f.name);
    return !!file && files.has(file);
  };
  const flaky = rerun.filter((f) => !stillFails(f)).map((f) => f.name);
  if (again.exitCode !== 0 && flaky.length === rerun.length && !narrowedTestsPassed(againReport)) return undefined;
  return { flaky, failedAgain };
}
