/**
 * The baseline in one line for the model: the whole suite runs once before the run's first edit
 * (orchestrator/earlyBaseline.ts, started with the run), and its verdict rides once in the next tool result, not in the
 * system prompt, which stays the same for every request (test/unit/testRuns/baselineNote.test.ts).
 */
import type { TestRunReport } from './report';

const NAMES_SHOWN = 5;
const NAME_CHARS = 100;

/** "Before your changes (the whole suite, 53.2 s): 2 of 310 tests failed: test/x.js > a, test/y.js; these do not block finish." */
export function baselineNote(r: TestRunReport, durationMs?: number): string {
  const took = durationMs !== undefined ? `, ${(durationMs / 1000).toFixed(1)} s` : '';
  const head = `Before your changes (the whole suite, run once before your first edit${took}):`;
  const failed = [failedTests(r), ...failedSteps(r), ...timedOut(r), unnamedUntimed(r)].filter(Boolean);
  if (!failed.length) return `${head} every test passed${r.counts ? ` (${r.counts.passed} passed)` : ''}.`;
  return `${head} ${failed.join('; ')}. What failed then does not block finish.`;
}

/** "2 of 310 tests failed: a, b" (the runner's count when it gave one, else the names'). */
function failedTests(r: TestRunReport): string {
  if (!r.failing.length) return '';
  const count = r.counts && r.counts.failed >= r.failing.length ? r.counts.failed : r.failing.length;
  const total = r.counts ? r.counts.passed + count : count;
  const of = r.counts ? ` of ${total}` : '';
  // What ended a failing file's process rides with its name: a timeout under load is not a bug to chase.
  const shown = r.failing
    .slice(0, NAMES_SHOWN)
    .map((n) => `${n.length > NAME_CHARS ? `${n.slice(0, NAME_CHARS - 3)}...` : n}${r.endedBy?.[n] ? ` (${r.endedBy[n]})` : ''}`);
  const more = count > shown.length ? ` and ${count - shown.length} more` : '';
  return `${count}${of} test${total === 1 ? '' : 's'} failed: ${shown.join(', ')}${more}`;
}

/** "npm test timed out after 300 s (the limit, patchpilot.tests.timeoutSeconds) and was killed": a baseline cut short names no failure. */
function timedOut(r: TestRunReport): string[] {
  return (r.timedOut ?? []).map((t) => `${t.command} timed out after ${t.seconds} s (the limit, patchpilot.tests.timeoutSeconds) and was killed`);
}

/** A command that failed without naming a test, unless the time limit is what ended it (said above). */
function unnamedUntimed(r: TestRunReport): string {
  if (!r.unnamedFailure || r.timedOut?.length) return '';
  return 'a test command failed without naming a test';
}

/** "script "posttest" (lint) failed in bin/semver.js": a step after every test passed, with the files its output names. */
function failedSteps(r: TestRunReport): string[] {
  return (r.failedSteps ?? []).map((s) => {
    const named = r.stepFiles?.[s]?.named ?? [];
    const files = named.length ? ` in ${named.slice(0, 3).join(', ')}${named.length > 3 ? ` and ${named.length - 3} more` : ''}` : '';
    return `${s} failed${files}`;
  });
}
