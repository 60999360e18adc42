/**
 * A narrowed run (`npm test -- test/a.js`, run_tests with files) still runs the project's steps that
 * judge the whole tree: node-tap's or nyc's coverage threshold (part of the suite covers part of the
 * code) and a `posttest` lint of every file. Such a run exits non-zero while every selected test
 * passed; it is judged by its tests, and the whole suite before the finish judges the steps
 * (test/unit/testRuns/wholeTreeSteps.test.ts).
 */
import { COVERAGE_STEP } from './failingStep';
import type { TestRunReport } from './report';

/** A failed step that says nothing about the selected tests: the coverage threshold, or a check failing only in files the run did not change. */
export function judgesWholeTree(r: Pick<TestRunReport, 'stepFiles'>, step: string): boolean {
  if (step === COVERAGE_STEP) return true;
  const files = r.stepFiles?.[step];
  return !!files?.named.length && !files.changed.length;
}

/** A narrowed run whose selected tests all passed and that failed only at steps judging the whole tree. */
export function narrowedTestsPassed(r: TestRunReport): boolean {
  const steps = r.failedSteps ?? [];
  return r.narrowed && !r.failing.length && !r.unnamedFailure && steps.length > 0 && steps.every((s) => judgesWholeTree(r, s));
}

/** "the selected tests passed (12 passed); coverage below the threshold is expected when only part of the suite runs; ...". */
export function narrowedVerdict(r: TestRunReport): string {
  // The runner's own count: node-tap counts each test file once, so "12 tests" would overstate what it says.
  const tests = `the selected tests passed${r.counts ? ` (${r.counts.passed} passed)` : ''}`;
  const steps = (r.failedSteps ?? []).map((s) =>
    s === COVERAGE_STEP
      ? 'coverage below the threshold is expected when only part of the suite runs'
      : `${s} failed only in files this run did not change (${(r.stepFiles?.[s]?.named ?? []).join(', ')}), which a part of the suite does not judge`,
  );
  return `${tests}; ${steps.join('; ')}; the whole suite runs before finish and judges that`;
}
