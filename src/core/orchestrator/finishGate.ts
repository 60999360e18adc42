import type { TestsAfterLastChange } from './testsOutcome';

/** Finishes refused while the tests fail, over a whole run (each needs a new failure state as well). */
export const MAX_FINISH_REFUSALS = 3;

export const FINISH_REFUSED =
  '[PatchPilot] You called finish, but the tests after your last edit FAILED, so the run was not ended. ' +
  'Read the failure in the test output, fix the code and run the tests again. If they cannot pass, call finish again ' +
  'and say plainly that the tests still fail and why.';

/**
 * A finish while the tests after the last edit failed does not end the run the first time: the model
 * is told and tries again. A second finish in the same failure state (no edit or test run since), or
 * more than MAX_FINISH_REFUSALS refusals in the run, ends it as "finished, tests failing".
 */
export class FinishGate {
  private refusedAt = -1;
  private refusals = 0;

  constructor(private readonly maxRefusals = MAX_FINISH_REFUSALS) {}

  /** What to tell the model instead of ending the run, or undefined: the finish stands. */
  check(tests: Pick<TestsAfterLastChange, 'outcome' | 'version'>): string | undefined {
    if (tests.outcome !== 'failed') return undefined;
    if (tests.version === this.refusedAt || this.refusals >= this.maxRefusals) return undefined;
    this.refusedAt = tests.version;
    this.refusals++;
    return FINISH_REFUSED;
  }
}
