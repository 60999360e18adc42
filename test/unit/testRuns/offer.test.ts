import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerOf, shouldOfferTests, testOfferButtons, type TestOfferAnswer } from '../../../src/core/testRuns/offer';

const npm = { command: 'npm test', source: 'package.json' };

test('the offer of a detected test command: only in a trusted workspace with none configured, once per answer', () => {
  const rows: [string, { trusted: boolean; configured: string[]; remembered?: TestOfferAnswer; detected?: typeof npm }, boolean][] = [
    ['trusted, nothing configured, never asked', { trusted: true, configured: [], detected: npm }, true],
    ['untrusted workspace: no offer', { trusted: false, configured: [], detected: npm }, false],
    ['a configured command wins', { trusted: true, configured: ['make check'], detected: npm }, false],
    ['nothing detected', { trusted: true, configured: [] }, false],
    ['answered Use', { trusted: true, configured: [], remembered: { answer: 'used' }, detected: npm }, false],
    ['answered Never for This Workspace', { trusted: true, configured: [], remembered: { answer: 'never' }, detected: npm }, false],
    ['answered Not Now for the same command', { trusted: true, configured: [], remembered: { answer: 'not-now', command: 'npm test' }, detected: npm }, false],
    [
      'answered Not Now, the project now has another command',
      { trusted: true, configured: [], remembered: { answer: 'not-now', command: 'npm test' }, detected: { command: 'pnpm test', source: 'package.json' } },
      true,
    ],
  ];
  for (const [name, input, expected] of rows) assert.equal(shouldOfferTests({ remembered: undefined, detected: undefined, ...input }), expected, name);
});

test('the buttons: the first names its verb and the command; each maps to the answer remembered', () => {
  const buttons = testOfferButtons(npm);
  assert.deepEqual(buttons, ['Use npm test', 'Not Now', 'Never for This Workspace']);
  assert.deepEqual(answerOf(npm, 'Use npm test'), { answer: 'used' });
  assert.deepEqual(answerOf(npm, 'Not Now'), { answer: 'not-now', command: 'npm test' });
  assert.deepEqual(answerOf(npm, 'Never for This Workspace'), { answer: 'never' });
  assert.equal(answerOf(npm, undefined), undefined);
});
