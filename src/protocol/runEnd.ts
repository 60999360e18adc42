import type { RunEndStatus, RunTestsOutcome, TestFailureNames } from './agentEvents';

const OUTCOME_WORDS: Record<RunTestsOutcome, string> = {
  passed: 'tests passed after the last edit',
  failed: 'tests FAILED after the last edit',
  'known-failures': 'no new test failures after the last edit',
  'not-run': 'tests did not run after the last edit',
};

/**
 * "tests FAILED after the last edit: test_a", "no new test failures after the last edit; 1
 * pre-existing failure (test_x)": the words the CLI, the chat, the toast and the history use.
 */
export function describeTestsOutcome(outcome: RunTestsOutcome, failures?: TestFailureNames): string {
  const words = OUTCOME_WORDS[outcome];
  if (outcome === 'failed' && failures?.new?.length) return `${words}: ${listed(failures.new)}`;
  if (outcome !== 'known-failures' || !failures) return words;
  const note = knownFailuresNote(failures);
  return `${words}; ${note || 'a test command still fails, as it did before the run'}`;
}

/** "1 pre-existing failure (test_x), 1 flaky (test_y)": the failures a finish may leave behind. */
export function knownFailuresNote(f: TestFailureNames): string {
  const part = (names: string[] | undefined, one: string, many: string) =>
    names?.length ? `${names.length} ${names.length === 1 ? one : many} (${listed(names)})` : '';
  return [
    part(f.preExisting, 'pre-existing failure', 'pre-existing failures'),
    part(f.flaky, 'flaky test', 'flaky tests'),
    part(f.passedAlone, 'failure that passes alone', 'failures that pass alone'),
  ]
    .filter(Boolean)
    .join(', ');
}

function listed(names: readonly string[]): string {
  return names.slice(0, 3).join(', ') + (names.length > 3 ? ` and ${names.length - 3} more` : '');
}

/** The outcome a history step worded with describeTestsOutcome (the list of runs reads it back); undefined for other text. */
export function testsOutcomeOfText(text: string | null | undefined): RunTestsOutcome | undefined {
  const all = Object.keys(OUTCOME_WORDS) as RunTestsOutcome[];
  return all.find((o) => text === OUTCOME_WORDS[o] || text?.startsWith(`${OUTCOME_WORDS[o]}:`) || text?.startsWith(`${OUTCOME_WORDS[o]};`));
}

/**
 * What the chat saw of a run that made no edit but ran tests (the model's run_tests): `tests` says
 * how they went after the last edit, and with no edit that is "not run" (or the baseline's failures),
 * which is untrue beside the chat's red test row. The chat passes this so the end line says what ran.
 */
export interface RunWithoutEdits {
  /** The last test run of the run passed. */
  testsPassed: boolean;
}

/** "no edits made; the last test run FAILED": the end line's words for a run that ran tests and edited nothing. */
export function describeTestsWithoutEdits(seen: RunWithoutEdits): string {
  return `no edits made; the last test run ${seen.testsPassed ? 'passed' : 'FAILED'}`;
}

/**
 * A run's end as the UI shows it: a run that finished while its last tests failed is not a success
 * (no green "finished"), and one that finished with no tests after its last edit says so in a
 * neutral tone. `tests` is absent on runs logged before it existed: the status alone decides.
 * `withoutEdits`: the run edited nothing and ran tests ("tests failed (no edits made)", neutral: the
 * failures are not the run's doing).
 */
export function runEndView(
  status: RunEndStatus,
  tests: RunTestsOutcome | undefined,
  withoutEdits?: RunWithoutEdits,
): { label: string; tone: 'ok' | 'error' | 'info' } {
  if (withoutEdits && tests !== undefined && tests !== 'failed') {
    const label = `${status} · tests ${withoutEdits.testsPassed ? 'passed' : 'failed'} (no edits made)`;
    return { label, tone: status !== 'finished' ? 'error' : withoutEdits.testsPassed ? 'ok' : 'info' };
  }
  const words =
    tests === 'passed'
      ? 'tests passed'
      : tests === 'failed'
        ? 'tests failed'
        : tests === 'known-failures'
          ? 'known test failures only'
          : tests === 'not-run'
            ? 'tests not run'
            : '';
  const label = words ? `${status} · ${words}` : status;
  if (status !== 'finished' || tests === 'failed') return { label, tone: 'error' };
  return { label, tone: tests === 'not-run' || tests === 'known-failures' ? 'info' : 'ok' };
}
