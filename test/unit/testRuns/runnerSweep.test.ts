import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeTestCommand, failingNames, summarizeTestOutput } from '../../../src/core/testRuns';

// Real runners' output on generated suites of many failure shapes (test/fixtures/runners/README.md says how).
const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/runners', `${name}.txt`), 'utf8');

interface Expected {
  counts: [passed: number | undefined, failed: number | undefined, skipped: number | undefined];
  /** Each failing test: its name, and what its message (or name) must say. */
  failures: [name: string, says: RegExp][];
}

const CASES: Record<string, Expected> = {
  // The same `group > same name` failing in two files is two failures, each with its own values.
  'node-spec/same-name': {
    counts: [0, 2, 0],
    failures: [
      ['group > same name', /'alpha'[\s\S]*'ALPHA'/],
      ['group > same name', /'beta'|BETA/],
    ],
  },
  'pytest/same-name': {
    counts: [0, 2, undefined],
    failures: [
      ['a/test_alpha.py::test_same_name', /'alpha' == 'ALPHA'/],
      ['b/test_beta.py::test_same_name', /'beta' == 'BETA'/],
    ],
  },
  // node's runner counts a test its own timeout ended as cancelled, not failed.
  'node-spec/timeout': { counts: [1, 1, 0], failures: [['never resolves', /timed out after 300ms/]] },
  'node-tap/timeout': { counts: [1, 1, 0], failures: [['never resolves', /timed out after 300ms/]] },
  // unittest's expected failure is no pass.
  'unittest/skip-todo': { counts: [1, 1, 2], failures: [['test_skips.TestGroup.test_value_mismatch', /AssertionError: 42 != 41/]] },
  // node-tap 16: a test's own `{ timeout }` is that test's failure, not the file's timer.
  'tap16/timeout': { counts: [0, 1, undefined], failures: [['slow.test.js > never resolves > timeout!', /expired: never resolves\ntimeout: 300/]] },
  // A thrown string is `(unnamed test)` in node-tap: the subtest names it; the quoted source is no diff.
  'tap16/throw-nonerror': {
    counts: [0, 1, undefined],
    failures: [
      ['throws.test.js > throws string', /^plain string thrown$/],
      ['throws.test.js > throws undefined', /^null$/],
    ],
  },
  // A test file that cannot load (a syntax error, a missing module, no test in it) is a failure named by its file.
  'jest/import': { counts: [1, 1, undefined], failures: [['./imports.test.js', /Cannot find module '.\/missing-module-xyz'/]] },
  'jest/syntax': { counts: [1, 1, undefined], failures: [['./broken.test.js', /unexpected token/]] },
  'vitest/syntax': { counts: [1, 1, undefined], failures: [['broken.test.mjs', /invalid JS syntax/]] },
  'vitest/zero': { counts: [0, 1, undefined], failures: [['empty.test.mjs', /No test suite found/]] },
  'mocha/import': {
    counts: [0, 1, undefined],
    failures: [['/tmp/runner-sweep/suites/mocha/import/imports.test.js', /^Error: Cannot find module '.\/missing-module-xyz'$/]],
  },
  'mocha/syntax': {
    counts: [0, 1, undefined],
    failures: [['/tmp/runner-sweep/suites/mocha/syntax/broken.test.js', /^SyntaxError: Unexpected token ';' \(broken\.test\.js:3\)$/]],
  },
  'tape/import': { counts: [undefined, undefined, undefined], failures: [['/tmp/runner-sweep/suites/tape/import/imports.test.js', /Cannot find module/]] },
  'uvu/syntax': {
    counts: [undefined, undefined, undefined],
    failures: [['/tmp/runner-sweep/suites/uvu/syntax/broken.test.js', /^SyntaxError: Unexpected token/]],
  },
  // jest words a thrown Error's message with no matcher line: the message is kept.
  'jest/async': { counts: [1, 1, undefined], failures: [['async rejects', /^rejected async value 7$/]] },
  'jest/many': { counts: [200, 1, undefined], failures: [['middle fails', /Expected: 41\nReceived: 42/]] },
  // jasmine: its own counts (pending are skipped) and `Failures:` list.
  'jasmine/skip-todo': { counts: [1, 1, 2], failures: [['value mismatch', /^Expected 42 to be 41\.$/]] },
  'jasmine/throw-nonerror': {
    counts: [1, 2, undefined],
    failures: [
      ['throws string', /^plain string thrown thrown$/],
      ['throws undefined', /no message/],
    ],
  },
  'jasmine/timeout': { counts: [1, 1, undefined], failures: [['never resolves', /Timeout - Async function did not complete within 300ms/]] },
  // AVA: each failure's title and its Difference values; skipped and todo tests counted; a file that cannot load named.
  'ava/assert': { counts: [2, 1, undefined], failures: [['value mismatch', /Difference \(- actual, \+ expected\):\n- 42\n\+ 41/]] },
  'ava/skip-todo': { counts: [1, 1, 2], failures: [['value mismatch', /- 42\n\+ 41/]] },
  'ava/throw-nonerror': {
    counts: [1, 2, undefined],
    failures: [
      ['throws string', /Reason:\n'plain string thrown'/],
      ['throws undefined', /Reason:\nundefined/],
    ],
  },
  'ava/syntax': { counts: [1, 1, undefined], failures: [['broken.test.js', /^SyntaxError: Unexpected token ';'$/]] },
};

describe('runner sweep: real output of many failure shapes', () => {
  for (const [name, e] of Object.entries(CASES)) {
    test(name, () => {
      const output = fixture(name);
      const s = summarizeTestOutput(output);
      assert.deepEqual([s.passed, s.failed, s.skipped], e.counts);
      assert.deepEqual(
        s.failures.map((f) => f.name),
        e.failures.map(([n]) => n),
      );
      e.failures.forEach(([, says], i) => assert.match(s.failures[i]!.message ?? '', says));
      // Windows line ends read the same.
      assert.deepEqual(summarizeTestOutput(output.replace(/\n/g, '\r\n')), s);
    });
  }

  test('the same name failing in two files is told apart by its file, in the summary and the one-line names', () => {
    const output = fixture('node-spec/same-name');
    const s = summarizeTestOutput(output);
    const text = describeTestCommand({ command: 'node --test', exitCode: 1, durationMs: 1000, timedOut: false, output, summary: s });
    assert.match(text, /FAIL group > same name \(\S+alpha\.test\.js\)[\s\S]*FAIL group > same name \(\S+beta\.test\.js\)/);
    assert.match(failingNames(s), /alpha\.test\.js\), group > same name \(\S+beta\.test\.js\)$/);
  });

  test('200 passing tests around one failure: the passing lines are dropped even from a short output, the failure is whole', () => {
    const output = fixture('jest/many');
    const text = describeTestCommand({ command: 'jest', exitCode: 1, durationMs: 1000, timedOut: false, output, summary: summarizeTestOutput(output) });
    assert.doesNotMatch(text, /passes 57\b/);
    assert.match(text, /lines of passing tests, coverage or stack frames omitted/);
    assert.match(text, /✕ middle fails[\s\S]*● middle fails\n\s+expect\(received\)\.toBe\(expected\)[\s\S]*Expected: 41\n\s+Received: 42/);
    assert.match(text, /Tests: {7}1 failed, 200 passed, 201 total/);
  });
});
