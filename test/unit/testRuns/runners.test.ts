import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatTestSummary, summarizeTestOutput } from '../../../src/core/testRuns';

// Each fixture is the real output of the runner (test/fixtures/testRuns/README.md says how it was recorded).
const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');
const names = (file: string) => summarizeTestOutput(fixture(file)).failures.map((f) => f.name);
const messageOf = (file: string, i = 0) => summarizeTestOutput(fixture(file)).failures[i]?.message ?? '';

describe('runner summaries from recorded output', () => {
  const counts: [file: string, framework: string, passed: number | undefined, failed: number, skipped: number | undefined][] = [
    ['tap.txt', 'tap', 1, 2, 1],
    ['tap-coverage.txt', 'tap', 60, 1, undefined],
    ['tape.txt', 'tape', 1, 1, undefined],
    ['prove.txt', 'prove', 2, 1, undefined],
    ['node-tap.txt', 'node', 1, 2, 1],
    ['node-spec.txt', 'node', 1, 2, 1],
    ['jest.txt', 'jest', 1, 2, 1],
    // dayjs's `npm test` chains jest runs (`TZ=... jest ... && ... && jest`): every run's `Tests:` line counts.
    ['npm-jest22-chained.txt', 'jest', 14, 1, undefined],
    ['jest22-chained-whole.txt', 'jest', 560, 10, undefined],
    ['vitest.txt', 'vitest', 1, 2, 1],
    ['mocha.txt', 'mocha', 1, 1, 1],
    ['pytest.txt', 'pytest', 1, 3, 2],
    ['pytest-rA.txt', 'pytest', 1, 3, 2],
    ['unittest.txt', 'unittest', 1, 2, 1],
    ['cargo.txt', 'cargo', 1, 2, 1],
    ['mocha-xunit.xml', 'junit', 1, 1, 1],
    ['pytest-junit.xml', 'junit', 1, 3, 2],
  ];
  for (const [file, framework, passed, failed, skipped] of counts) {
    test(`${file}: ${framework}, ${passed} passed, ${failed} failed, ${skipped ?? 'no'} skipped`, () => {
      const s = summarizeTestOutput(fixture(file));
      assert.deepEqual([s.framework, s.passed, s.failed, s.skipped], [framework, passed, failed, skipped]);
      assert.equal(s.failures.length, failed);
    });
  }

  test("a chained script's jest runs: the summed counts say they are a sum (each run's own `Tests:` line differs from it)", () => {
    const chained = fixture('jest22-chained-whole.txt');
    const runs = [...chained.matchAll(/^Tests:/gm)].length;
    assert.ok(runs > 1);
    assert.match(formatTestSummary(summarizeTestOutput(chained)), new RegExp(`^jest, ${runs} runs summed: 560 passed, 10 failed$`, 'm'));
    assert.match(formatTestSummary(summarizeTestOutput(fixture('jest.txt'))), /^jest: 1 passed, 2 failed, 1 skipped$/m);
  });

  test('TAP names the innermost failing test by its subtests, with the diff (node-tap) or the values (tape, prove)', () => {
    assert.deepEqual(names('tap.txt'), ['t/math.test.js > subtracts wrong > five minus three', 't/math.test.js > objects > should be equivalent']);
    assert.match(messageOf('tap.txt'), /--- expected\n\+\+\+ actual\n-3\n\+2/);
    assert.equal(summarizeTestOutput(fixture('tap.txt')).failures[0]!.file, 't/math.test.js');
    assert.deepEqual(names('tape.txt'), ['subtracts wrong > five minus three']);
    assert.match(messageOf('tape.txt'), /expected: 3\nactual: +2/);
    assert.deepEqual(names('prove.txt'), ['math works']);
    assert.match(messageOf('prove.txt'), /got: '4'\nexpected: '5'/);
    assert.deepEqual(names('node-tap.txt'), ['subtracts wrong', 'suite > inner fails']);
  });

  test('pytest: the E lines of each failure (the values), not the short summary cut at 80 columns', () => {
    assert.deepEqual(names('pytest.txt'), ['tests/test_calc.py::test_add_wrong', 'tests/test_calc.py::test_dict', 'tests/test_calc.py::test_raises']);
    assert.equal(messageOf('pytest.txt', 0), 'assert 4 == 5');
    assert.match(messageOf('pytest.txt', 1), /Differing items:\n\{'b': 2\} != \{'b': 3\}/);
    assert.equal(messageOf('pytest.txt', 2), 'ValueError: bad value 42');
    assert.equal(summarizeTestOutput(fixture('pytest.txt')).failures[0]!.file, 'tests/test_calc.py');
  });

  test('jest, vitest, mocha, node spec: the matcher values under each name', () => {
    assert.deepEqual(names('jest.txt'), ['subtracts wrong', 'suite › objects']);
    assert.match(messageOf('jest.txt'), /Expected: 3\nReceived: 2/);
    // jest 22 prints the values on the indented lines under `Expected value to be:` and `Received:`.
    assert.match(messageOf('npm-jest22-chained.txt'), /Expected value to be:\n {2}"2012-03-11T00:59:59-05:00"\nReceived:\n {2}"2012-03-11T01:59:59-05:00"/);
    assert.deepEqual(names('vitest.txt'), ['math.test.js > subtracts wrong', 'math.test.js > suite > objects']);
    assert.match(messageOf('vitest.txt'), /expected 2 to be 3/);
    assert.deepEqual(names('mocha.txt'), ['math subtracts wrong']);
    assert.match(messageOf('mocha.txt'), /2 !== 3/);
    assert.deepEqual(names('node-spec.txt'), ['subtracts wrong', 'suite > inner fails']);
    assert.match(messageOf('node-spec.txt', 1), /\+ {3}a: 1\n- {3}a: 2/);
  });

  test('unittest, cargo, JUnit XML: the exception or panic with its values', () => {
    assert.deepEqual(names('unittest.txt'), ['tests.test_unit.TestMath.test_error', 'tests.test_unit.TestMath.test_bad']);
    assert.equal(messageOf('unittest.txt', 1), 'AssertionError: 4 != 5');
    assert.deepEqual(names('cargo.txt'), ['tests::adds_wrong', 'tests::panics']);
    assert.match(messageOf('cargo.txt'), /left: 4\n\s*right: 5/);
    assert.deepEqual(names('pytest-junit.xml'), ['tests.test_calc test_add_wrong', 'tests.test_calc test_dict', 'tests.test_calc test_raises']);
    assert.equal(messageOf('pytest-junit.xml'), 'assert 4 == 5');
  });

  test('output no runner claims: FAIL/ERROR lines name the failures; nothing found gives no counts', () => {
    const s = summarizeTestOutput('building...\nFAIL: parser handles empty input\n  Error: expected [] got undefined\nFAIL: lexer\n');
    assert.deepEqual(
      s.failures.map((f) => [f.name, f.message]),
      [
        ['parser handles empty input', 'Error: expected [] got undefined'],
        ['lexer', undefined],
      ],
    );
    assert.deepEqual(summarizeTestOutput('make: *** [check] Error 2\n'), { failures: [] });
  });

  test('the summary lists skips and indents multi-line messages', () => {
    assert.equal(
      formatTestSummary(summarizeTestOutput(fixture('cargo.txt'))),
      'cargo: 1 passed, 2 failed, 1 skipped\n  FAIL tests::adds_wrong\n       panicked at src/lib.rs:9:23:\n       assertion `left == right` failed\n         left: 4\n        right: 5\n  FAIL tests::panics\n       panicked at src/lib.rs:14:19:\n       boom at 7',
    );
  });
});
