import type { RunEndStatus, RunTestsOutcome } from './agentEvents';

/** "tests FAILED after the last edit": the words the CLI, the chat, the toast and the history use. */
export function describeTestsOutcome(outcome: RunTestsOutcome): string {
  if (outcome === 'passed') return 'tests passed after the last edit';
  if (outcome === 'failed') return 'tests FAILED after the last edit';
  return 'tests did not run after the last edit';
}

/** The outcome a history step worded with describeTestsOutcome (the list of runs reads it back); undefined for other text. */
export function testsOutcomeOfText(text: string | null | undefined): RunTestsOutcome | undefined {
  const all: RunTestsOutcome[] = ['passed', 'failed', 'not-run'];
  return all.find((o) => describeTestsOutcome(o) === text);
}

/**
 * A run's end as the UI shows it: a run that finished while its last tests failed is not a success
 * (no green "finished"), and one that finished with no tests after its last edit says so in a
 * neutral tone. `tests` is absent on runs logged before it existed: the status alone decides.
 */
export function runEndView(status: RunEndStatus, tests: RunTestsOutcome | undefined): { label: string; tone: 'ok' | 'error' | 'info' } {
  const words = tests === 'passed' ? 'tests passed' : tests === 'failed' ? 'tests failed' : tests === 'not-run' ? 'tests not run' : '';
  const label = words ? `${status} · ${words}` : status;
  if (status !== 'finished' || tests === 'failed') return { label, tone: 'error' };
  return { label, tone: tests === 'not-run' ? 'info' : 'ok' };
}
