import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeTestsOutcome, describeTestsWithoutEdits, runEndView, testsOutcomeOfText } from '../../../src/protocol/runEnd';

test('the end badge: a finish whose last tests failed is not green; other endings keep their tone', () => {
  const rows: [Parameters<typeof runEndView>, ReturnType<typeof runEndView>][] = [
    [['finished', 'failed'], { label: 'finished · tests failed', tone: 'error' }],
    [['finished', 'passed'], { label: 'finished · tests passed', tone: 'ok' }],
    [['finished', 'not-run'], { label: 'finished · tests not run', tone: 'info' }],
    // A run logged before the field existed: the status alone.
    [['finished', undefined], { label: 'finished', tone: 'ok' }],
    [['cancelled', 'passed'], { label: 'cancelled · tests passed', tone: 'error' }],
    [['failed', undefined], { label: 'failed', tone: 'error' }],
  ];
  for (const [args, expected] of rows) assert.deepEqual(runEndView(...args), expected, args.join(' '));
});

test('the tests step reads back as the outcome that worded it; other text is no outcome', () => {
  for (const o of ['passed', 'failed', 'not-run'] as const) assert.equal(testsOutcomeOfText(describeTestsOutcome(o)), o);
  for (const other of [undefined, null, '', 'tests passed', 'TESTS FAILED AFTER THE LAST EDIT']) assert.equal(testsOutcomeOfText(other), undefined);
});

test('a run that ran tests and edited nothing: its end line says how the tests went, not "tests not run"', () => {
  assert.deepEqual(runEndView('finished', 'not-run', { testsPassed: false }), { label: 'finished · tests failed (no edits made)', tone: 'info' });
  assert.deepEqual(runEndView('finished', 'not-run', { testsPassed: true }), { label: 'finished · tests passed (no edits made)', tone: 'ok' });
  // The baseline's failures, with no edit after them: the same words.
  assert.deepEqual(runEndView('finished', 'known-failures', { testsPassed: false }), { label: 'finished · tests failed (no edits made)', tone: 'info' });
  assert.deepEqual(runEndView('cancelled', 'not-run', { testsPassed: true }), { label: 'cancelled · tests passed (no edits made)', tone: 'error' });
  // A run logged before the outcome existed says only its status, whatever the chat saw.
  assert.deepEqual(runEndView('finished', undefined, { testsPassed: false }), { label: 'finished', tone: 'ok' });
  assert.equal(describeTestsWithoutEdits({ testsPassed: false }), 'no edits made; the last test run FAILED');
});
