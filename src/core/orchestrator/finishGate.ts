import { mentionsTest, NAMING_RULE, unnamedComparedWithBaseline } from '../testRuns';
import type { TestsAfterLastChange } from './testsOutcome';

/** Finishes refused while the tests fail, over a whole run (each needs a new failure state as well). */
export const MAX_FINISH_REFUSALS = 3;

/** What a refused finish says failed besides named tests: the steps after the tests, and how an unnamed failure compares with the baseline. */
export interface RefusedBesides {
  /** Steps that are not the test runner that failed after every test passed, and did not before the run. */
  steps?: readonly string[];
  /** For a command failing without naming a test: the clause true for the baseline (unnamedComparedWithBaseline). */
  unnamedSince?: string;
}

/**
 * What the model reads when its finish is refused: which failures are new (the run introduced
 * them), and the two honest ways out: fix them, or show they are not the change's doing.
 */
export function finishRefused(newFailures: readonly string[], besides: RefusedBesides = {}): string {
  if (!newFailures.length && besides.steps?.length) return stepRefused(besides.steps);
  const which = newFailures.length
    ? `these tests fail after your last edit and did not fail before the run: ${newFailures.join(', ')}`
    : `a test command fails after your last edit without naming a test${besides.unnamedSince ?? ''}`;
  return (
    `[PatchPilot] You called finish, but ${which}, so the run was not ended. ` +
    'Failures that already failed before the run, or that passed on their rerun (flaky), do not block a finish. ' +
    'Fix the code and run the tests again; if you believe a failure is not caused by your change, run that test alone ' +
    '(run_tests with files or name): a passing run counts. If they cannot pass, call finish again naming each failing test and why. ' +
    (newFailures.length ? NAMING_RULE : '')
  ).trimEnd();
}

/** A step that is not a test (a posttest lint, a type check) failed: running a test alone proves nothing, its files need fixing. */
function stepRefused(steps: readonly string[]): string {
  return (
    `[PatchPilot] You called finish, but every test passed after your last edit and ${steps.join('; ')} failed, ` +
    'which did not before the run, so the run was not ended. This step is not a test: fix what it reports in those files ' +
    'and run the tests again. A step that fails only in files the run did not change does not block a finish. ' +
    'If it cannot pass, call finish again naming the step and why.'
  );
}

/**
 * What the model reads when it finishes without a word about tests that failed before the run and
 * still fail: often the very test a bug fix was meant to make pass. Asked once; naming them ends the run.
 */
export function finishUnsaid(preExisting: readonly string[]): string {
  return (
    `[PatchPilot] You called finish, but these tests still fail: ${preExisting.join(', ')}. They failed before the run too, ` +
    'so they do not block a finish, but your finish does not mention them. If your change was meant to make them pass, ' +
    'it does not yet: fix it and run them (run_tests with files or name). If they fail for a reason outside this task, ' +
    'call finish again naming each of them and why. ' +
    NAMING_RULE
  );
}

/**
 * A finish while tests the run broke still fail does not end the run the first time: the model is
 * told which and tries again. Failures that are flaky or passed alone never refuse a finish;
 * pre-existing ones only ask once when the finish does not name them (unsaid); nor does a finish that names every new failure (the model says why they remain), a second
 * finish in the same failure state or with the same failing tests, or more than MAX_FINISH_REFUSALS.
 */
export class FinishGate {
  private refusedAt = -1;
  private refusals = 0;
  private readonly refusedFor = new Set<string>();

  constructor(private readonly maxRefusals = MAX_FINISH_REFUSALS) {}

  /** What to tell the model instead of ending the run, or undefined: the finish stands. */
  check(
    tests: Pick<TestsAfterLastChange, 'outcome' | 'version' | 'failures'> & Partial<Pick<TestsAfterLastChange, 'baselineReport'>>,
    summary = '',
  ): string | undefined {
    if (tests.outcome === 'known-failures') return this.unsaid(tests, summary);
    if (tests.outcome !== 'failed') return undefined;
    const fresh = tests.failures.new;
    // The same named failures refuse once, whatever was edited in between; unnamed ones once per state.
    const key = [...fresh, ...tests.failures.newSteps].sort().join('\n');
    if (tests.version === this.refusedAt || (key && this.refusedFor.has(key)) || this.refusals >= this.maxRefusals) return undefined;
    const files = tests.failures.files ?? {};
    if (fresh.length && !tests.failures.newSteps.length && fresh.every((name) => mentionsTest(summary, name, files[name]))) return undefined;
    this.refusedAt = tests.version;
    this.refusedFor.add(key);
    this.refusals++;
    return finishRefused(fresh, { steps: tests.failures.newSteps, unnamedSince: unnamedComparedWithBaseline(tests.baselineReport) });
  }

  /** Pre-existing failures the finish does not name: asked once per set of tests, never twice for the same honest finish. */
  private unsaid(tests: Pick<TestsAfterLastChange, 'version' | 'failures'>, summary: string): string | undefined {
    const files = tests.failures.files ?? {};
    const left = tests.failures.preExisting.filter((name) => !mentionsTest(summary, name, files[name]));
    const key = `pre-existing:${[...tests.failures.preExisting].sort().join('\n')}`;
    if (!left.length || this.refusedFor.has(key) || tests.version === this.refusedAt || this.refusals >= this.maxRefusals) return undefined;
    this.refusedAt = tests.version;
    this.refusedFor.add(key);
    this.refusals++;
    return finishUnsaid(left);
  }
}
