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
});
