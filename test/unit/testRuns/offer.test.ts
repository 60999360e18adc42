import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerOf, rememberedAfterUse, shouldOfferTests, testCommandPlaces, testOfferButtons, type TestOfferAnswer } from '../../../src/core/testRuns/offer';

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

test('"Use" asks where to keep the command: window first, the workspace file named plainly; only window-only is not remembered', () => {
  const places = testCommandPlaces('npm test', 'adder/.vscode/settings.json');
  assert.deepEqual(
    places.map((p) => [p.place, p.label]),
    [
      ['window', 'This Window Only'],
      ['workspace', 'This Workspace'],
      ['user', 'User Settings'],
    ],
  );
  assert.deepEqual(
    places.map((p) => p.description),
    ['writes nothing', 'writes adder/.vscode/settings.json', 'writes your user settings'],
  );
  assert.match(places[1]!.detail, /A file in your repository/);
  assert.match(places[2]!.detail, /every workspace whose settings name no test command/);
  assert.equal(rememberedAfterUse('window'), undefined);
  assert.deepEqual(rememberedAfterUse('workspace'), { answer: 'used' });
  assert.deepEqual(rememberedAfterUse('user'), { answer: 'used' });
});
