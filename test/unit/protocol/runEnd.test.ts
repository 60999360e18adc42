import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeTestsOutcome, runEndView, testsOutcomeOfText } from '../../../src/protocol/runEnd';

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
