// A narrowed run (`npm test -- test/functions/gt.js`) still runs the steps that judge the whole tree:
// node-tap's coverage threshold and a posttest lint. On real npm + node-tap output it is judged by its
// tests: every selected test passed and only such a step failed is a pass, said plainly; a lint of a
// file the run changed, or a whole-suite run, still fails.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { narrowedTestsPassed, reportOf, rerunVerdict, summarizeTestOutput, verdictOf, type TestCommandResult } from '../../../src/core/testRuns';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');
const result = (file: string, command = 'npm test -- test/functions/gt.js'): TestCommandResult => {
  const output = fixture(file);
  return { command, exitCode: 1, durationMs: 1000, timedOut: false, output, summary: summarizeTestOutput(output) };
};
const LINT_ROOT = '/tmp/h1rec';
const LINTED = 'lib/functions/compare-module-3.js';

describe('a narrowed run judged by its tests', () => {
  test('node-tap 14 narrowed to one file: every test passed, the 100% coverage threshold failed: a pass, said plainly', () => {
    const r = reportOf([result('npm-tap14-narrowed-coverage.txt')], { narrowed: true, changedFiles: ['internal/re.js'], root: '/tmp/h2rec/semver' });
    assert.deepEqual(r.failedSteps, ['the coverage threshold check']);
    assert.equal(narrowedTestsPassed(r), true);
    assert.equal(
      verdictOf(r, undefined),
      'the selected tests passed (1 passed); coverage below the threshold is expected when only part of the suite runs; the whole suite runs before finish and judges that',
    );
  });

  test('the same output from a whole-suite run is a failed step, as before', () => {
    const r = reportOf([result('npm-tap14-narrowed-coverage.txt', 'npm test')], { narrowed: false, changedFiles: [] });
    assert.equal(narrowedTestsPassed(r), false);
    assert.match(verdictOf(r, undefined), /^tests passed; the coverage threshold check failed/);
  });

  test('a posttest lint failing only in a file the run did not change: a pass for a narrowed run', () => {
    const r = reportOf([result('npm-tap16-posttest-lint.txt')], { narrowed: true, changedFiles: ['lib/add.js'], root: LINT_ROOT });
    assert.equal(narrowedTestsPassed(r), true);
    assert.match(verdictOf(r, undefined), new RegExp(`failed only in files this run did not change \\(${LINTED}\\), which a part of the suite does not judge`));
  });

  test('a posttest lint failing in a file the run changed stays a failure, narrowed or not', () => {
    const r = reportOf([result('npm-tap16-posttest-lint.txt')], { narrowed: true, changedFiles: [LINTED], root: LINT_ROOT });
    assert.equal(narrowedTestsPassed(r), false);
    assert.match(verdictOf(r, undefined), /^tests passed; script "posttest" \(lint\) in files this run changed: lib\/functions\/compare-module-3\.js failed/);
  });

  test('a narrowed run with a failing test is a failure whatever its steps', () => {
    const r = reportOf([result('tap16-timeout-file.txt')], { narrowed: true, changedFiles: [] });
    assert.equal(narrowedTestsPassed(r), false);
  });

  test('a rerun that failed only at the coverage threshold tells a flake apart: its tests passed', () => {
    const again = result('npm-tap14-narrowed-coverage.txt');
    const verdict = rerunVerdict([{ name: 'test/functions/gt.js', file: 'test/functions/gt.js' }], again, { changedFiles: [] });
    assert.deepEqual(verdict, { flaky: ['test/functions/gt.js'], failedAgain: [] });
  });
});
