// The rerun that tells a flake from a failure, on real runners' output (test/fixtures/testRuns/README.md):
// node-tap 16 names a timed-out file's failure after its subtest in one run and after the file alone
// in the next, and a failure the baseline already explains is not rerun at all.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { failuresWorthRerun, reportOf, rerunVerdict, summarizeTestOutput, verdictOf, type TestCommandResult } from '../../../src/core/testRuns';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');
const resultOf = (file: string, exitCode = 1): TestCommandResult => {
  const output = fixture(file);
  return { command: 'npm test', exitCode, durationMs: 1000, timedOut: false, output, summary: summarizeTestOutput(output) };
};

describe('what the rerun says about each failure', () => {
  test('a rerun that names only the file the first run named a subtest of failed again: nothing is flaky, the headline is not "passed"', () => {
    const first = resultOf('tap16-timeout-subtest.txt');
    const again = resultOf('tap16-timeout-file.txt');
    const verdict = rerunVerdict(first.summary.failures, again);
    assert.deepEqual(verdict, { flaky: [], failedAgain: ['test/bin/semver.js'] });
    const report = reportOf([first], { narrowed: false, flaky: verdict!.flaky });
    assert.match(verdictOf(report, undefined), /^tests FAILED/);
  });

  test('a rerun that exits 0 makes its failures flaky; one that exits non-zero naming nothing of theirs tells nothing apart', () => {
    const first = resultOf('tap16-timeout-subtest.txt');
    const passed: TestCommandResult = { ...first, exitCode: 0, output: 'ok', summary: { failures: [], passed: 4 } };
    assert.deepEqual(rerunVerdict(first.summary.failures, passed), { flaky: ['test/bin/semver.js'], failedAgain: [] });
    const silent: TestCommandResult = { ...passed, exitCode: 1 };
    assert.equal(rerunVerdict(first.summary.failures, silent), undefined);
    const elsewhere = resultOf('tap.txt');
    assert.ok(elsewhere.summary.failures.length > 0);
    assert.equal(rerunVerdict(first.summary.failures, elsewhere), undefined);
  });
});

describe('which failures are rerun', () => {
  test('a failure the baseline explains (here by its file, its name drifted) is not rerun; without a baseline every failure is', () => {
    const baselineRun = resultOf('tap16-timeout-subtest.txt');
    const after = resultOf('tap16-timeout-file.txt');
    const baseline = reportOf([baselineRun], { narrowed: false });
    assert.deepEqual(failuresWorthRerun(after, baseline), []);
    assert.deepEqual(
      failuresWorthRerun(after, undefined).map((f) => f.name),
      ['test/bin/semver.js'],
    );
  });

  test('a file the timer ended before the run is not rerun when the timer ends it again, whichever subtest it cut and whatever the run changed', () => {
    const baseline = reportOf([resultOf('tap14-timeout-baseline.txt')], { narrowed: false });
    const after = resultOf('tap14-timeout-after.txt');
    assert.deepEqual(failuresWorthRerun(after, baseline, ['classes/range.js']), []);
    assert.deepEqual(failuresWorthRerun(after, baseline, new Set(['bin/semver.js'])), []);
    assert.deepEqual(
      failuresWorthRerun(after, undefined).map((f) => f.name),
      ['test/bin/semver.js'],
    );
  });

  test('failures the baseline does not know are rerun; the same failures as before are not', () => {
    const tap = resultOf('tap.txt');
    const names = tap.summary.failures.map((f) => f.name);
    const baseline = reportOf([resultOf('tap16-timeout-subtest.txt')], { narrowed: false });
    assert.deepEqual(
      failuresWorthRerun(tap, baseline).map((f) => f.name),
      names,
    );
    const sameAsBefore = reportOf([tap], { narrowed: false });
    assert.deepEqual(failuresWorthRerun(tap, sameAsBefore), []);
  });
});
