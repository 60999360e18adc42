// Which steps of a chained package script ran, from npm's banners in real output
// (test/fixtures/testRuns/npm-jest22-chained.txt: dayjs's `npm test`, its third jest run fails).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chainStopped, scriptChain } from '../../../src/core/testRuns';

const dayjs = readFileSync(path.join(__dirname, '../../fixtures/testRuns/npm-jest22-chained.txt'), 'utf8');
const DAYJS = {
  test: 'TZ=Pacific/Auckland npm run test-tz && TZ=Europe/London npm run test-tz && TZ=America/Whitehorse npm run test-tz && npm run test-tz && jest',
  'test-tz': 'date && jest test/timezone.test --coverage=false',
};

test("dayjs's chain stopped at its third time-zone run: the fourth and the whole-suite jest never ran", () => {
  assert.equal(
    chainStopped(scriptChain(DAYJS, 'npm test'), dayjs),
    'script "test" stopped at its first failing step: test-tz (TZ=Pacific/Auckland) and test-tz (TZ=Europe/London) passed; test-tz (TZ=America/Whitehorse) failed; test-tz and `jest` never ran',
  );
});

test('nothing is said when the output cannot tell: no banner of the chain, silent steps, a chain that goes on after a failure', () => {
  const chain = scriptChain(DAYJS, 'npm test');
  assert.equal(chainStopped(chain, dayjs.replace(/^> dayjs@\S+ test$/m, '')), undefined);
  const silent = { ...DAYJS, test: DAYJS.test.replace(/npm run/g, 'npm run --silent') };
  assert.equal(chainStopped(scriptChain(silent, 'npm test'), dayjs), undefined);
  const goesOn = { ...DAYJS, test: DAYJS.test.replace(/ && /g, '; ') };
  assert.equal(chainStopped(scriptChain(goesOn, 'npm test'), dayjs), undefined);
});

test('a script that runs one step is no chain', () => {
  assert.equal(chainStopped(scriptChain({ test: 'jest' }, 'npm test'), dayjs), undefined);
});
