// Failures measured against the baseline on real runners' output (test/fixtures/testRuns/README.md):
// a timeout whose name drifts between runs, a posttest lint after every test passed, a coverage
// threshold, and the words for a command that fails without naming a test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  classifyFailures,
  describeTestCommand,
  normalisedTestName,
  reportOf,
  summarizeTestOutput,
  verdictOf,
  type TestCommandResult,
  type TestRunReport,
} from '../../../src/core/testRuns';
import { TestsAfterLastChange } from '../../../src/core/orchestrator/testsOutcome';
import { FinishGate } from '../../../src/core/orchestrator/finishGate';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');
const resultOf = (file: string, exitCode = 1): TestCommandResult => {
  const output = fixture(file);
  return { command: 'npm test', exitCode, durationMs: 1000, timedOut: false, output, summary: summarizeTestOutput(output) };
};
const runOf = (file: string) => reportOf([resultOf(file)], { narrowed: false });
const named = (failing: string[], failingFiles?: Record<string, string>, unnamedFailure = false): TestRunReport => ({
  narrowed: false,
  failing,
  ...(failingFiles ? { failingFiles } : {}),
  flaky: [],
  unnamedFailure,
  aimedAt: [],
});
const PASSED = named([]);

/** The ledger after a baseline, one edit, and the run after it. */
function ledger(baseline: TestRunReport, after: TestRunReport): TestsAfterLastChange {
  const tests = new TestsAfterLastChange();
  tests.ranReport(baseline);
  tests.changed();
  tests.ranReport(after);
  return tests;
}

describe('a pre-existing failure whose name drifts between runs', () => {
  test('node-tap 16 cuts one file by its timer in a subtest, then before any: one failure named by the file both times, so not new', () => {
    const baseline = runOf('tap16-timeout-subtest.txt');
    const after = runOf('tap16-timeout-file.txt');
    assert.deepEqual(baseline.failing, ['test/bin/semver.js']);
    assert.deepEqual(after.failing, ['test/bin/semver.js']);
    // What explains it is the timer, in plain words: not a `timeout: 2000` that reads like an assertion, nor the process's argument list.
    assert.equal(
      summarizeTestOutput(fixture('tap16-timeout-file.txt')).failures[0]!.message,
      "the file's run was ended after 2 s (tap's per-file time limit of 2 s, set by --timeout or TAP_TIMEOUT; not a test's assertion), its subtest cli runs did not finish",
    );
    assert.deepEqual(classifyFailures(after, baseline), { fresh: [], preExisting: ['test/bin/semver.js'], inFailedFile: [] });
    assert.equal(verdictOf(after, baseline), '1 failure, pre-existing (test/bin/semver.js); no new failures');
    const tests = ledger(baseline, after);
    assert.equal(tests.outcome, 'known-failures');
    assert.deepEqual(tests.failures.new, []);
    assert.equal(new FinishGate().check(tests, 'Fixed diff; test/bin/semver.js times out under load, as before the run.'), undefined);
  });

  test('durations, bracketed numbers and ids do not make a failure new', () => {
    for (const [before, now] of [
      ['cli > runs in time (30012ms)', 'cli > runs in time (29998 ms)'],
      ['retries [1]', 'retries [2]'],
      ['worker 3f9c2a7b1e crashed', 'worker 0a1b2c3d4e5f crashed'],
      ['timeout after 30.1s', 'timeout after 31.7s'],
      ['session 123e4567-e89b-12d3-a456-426614174000 ends', 'session 00000000-0000-4000-8000-000000000000 ends'],
    ] as const) {
      assert.equal(normalisedTestName(before), normalisedTestName(now), `${before} / ${now}`);
      const r = classifyFailures(named([now], { [now]: 'test/a.js' }), named([before], { [before]: 'test/a.js' }));
      assert.deepEqual(r.preExisting, [now]);
    }
    // What a test is about stays: different words are different tests.
    assert.notEqual(normalisedTestName('adds 2 and 2'), normalisedTestName('adds 2 and 3'));
  });

  test('a failure in a file that passed before the run is new, whatever else failed then', () => {
    const baseline = runOf('tap16-timeout-subtest.txt');
    const after = named(['test/functions/diff.js > diff > bad version'], { 'test/functions/diff.js > diff > bad version': 'test/functions/diff.js' });
    assert.deepEqual(classifyFailures(after, baseline).fresh, ['test/functions/diff.js > diff > bad version']);
    assert.match(verdictOf(after, baseline), /^tests FAILED: 1 new failure \(test\/functions\/diff\.js > diff > bad version\)$/);
    assert.equal(ledger(baseline, after).outcome, 'failed');
  });
});

describe("node-tap 14's 30 s per-file timeout cuts a different subtest each run", () => {
  // semver at 9ab7b71, `tap --no-coverage --timeout=13 test/bin/semver.js` twice on a loaded machine
  // (the suite's 30 s timer, scaled): the timer cut `sorting and filtering` at its end, then in the middle.
  const withChanged = (r: TestRunReport, changedFiles: string[]): TestRunReport => ({ ...r, changedFiles });

  test('the file the timer ended is one failure named by the file, whichever subtest the timer cut: the cut results fold into it', () => {
    for (const run of ['tap14-timeout-baseline.txt', 'tap14-timeout-after.txt']) {
      assert.deepEqual(runOf(run).failing, ['test/bin/semver.js'], run);
      const summary = summarizeTestOutput(fixture(run));
      assert.match(
        summary.failures[0]!.message!,
        /^the file's run was ended after 1[45] s \(tap's per-file time limit of 13 s.*\), its subtest sorting and filtering did not finish$/,
      );
      assert.equal(summary.failures[0]!.file, 'test/bin/semver.js');
    }
  });

  test('the run changed other files: the same timeout as before, and the finish is accepted', () => {
    const baseline = runOf('tap14-timeout-baseline.txt');
    const after = withChanged(runOf('tap14-timeout-after.txt'), ['classes/range.js', 'internal/re.js']);
    assert.deepEqual(classifyFailures(after, baseline), { fresh: [], preExisting: ['test/bin/semver.js'], inFailedFile: [] });
    const tests = ledger(baseline, after);
    assert.equal(tests.outcome, 'known-failures');
    assert.deepEqual(tests.failures.new, []);
    assert.equal(new FinishGate().check(tests, 'Fixed the range parser; test/bin/semver.js hits the 30 s timeout under load, as before.'), undefined);
  });

  test('a file that passed before and is ended by the timer now is a new failure', () => {
    const after = withChanged(runOf('tap14-timeout-after.txt'), ['bin/semver.js']);
    assert.deepEqual(classifyFailures(after, PASSED).fresh, ['test/bin/semver.js']);
    assert.equal(ledger(PASSED, after).outcome, 'failed');
  });

  test('a file that failed as a whole before (killed before any subtest reported) counts as cut off too', () => {
    const baseline = named(['test/bin/semver.js'], {});
    const after = withChanged(runOf('tap14-timeout-after.txt'), ['classes/range.js']);
    assert.deepEqual(classifyFailures(after, baseline).fresh, []);
  });
});

describe('a file that failed before for a named reason', () => {
  // node-tap 14 on test/parse.js (two real runs): `pads a short version` failed before the run, `reads a zero` after.
  test('another subtest failing now is a different, named reason: new, although the file failed before', () => {
    const baseline = runOf('tap14-named-before.txt');
    const after = { ...runOf('tap14-named-after.txt'), changedFiles: ['lib/other.js'] };
    // The file's own result failed only because its subtest did: it is no failure of its own.
    assert.deepEqual(baseline.failing, ['test/parse.js > parse > pads a short version']);
    assert.deepEqual(classifyFailures(after, baseline), { fresh: ['test/parse.js > parse > reads a zero'], preExisting: [], inFailedFile: [] });
    assert.equal(ledger(baseline, after).outcome, 'failed');
  });

  test('a timeout in that file now names no reason of its own: the known failure drifting, unless the run touched the file', () => {
    const baseline = runOf('tap14-named-before.txt');
    const timedOut = 'test/parse.js > parse > timeout!';
    const after = (changedFiles: string[]) => ({ ...named([timedOut], { [timedOut]: 'test/parse.js' }), changedFiles });
    assert.deepEqual(classifyFailures(after(['lib/other.js']), baseline).inFailedFile, [timedOut]);
    assert.deepEqual(classifyFailures(after(['parse.js']), baseline).fresh, [timedOut]);
  });
});

describe('a step that is not the test runner fails after every test passed', () => {
  test('npm posttest lint after node-tap 16 passed 81 files: tests passed, the step is named, and it is the baseline state when it failed then too', () => {
    const r = runOf('npm-tap16-posttest-lint.txt');
    assert.deepEqual([r.failing, r.unnamedFailure, r.failedSteps], [[], false, ['script "posttest" (lint)']]);
    assert.match(
      describeTestCommand(resultOf('npm-tap16-posttest-lint.txt')),
      /^failed step: script "posttest" \(lint\), after every test passed\ntap: 81 test files passed$/m,
    );
    assert.equal(verdictOf(r, r), 'tests passed; script "posttest" (lint) failed, as it did before the run');
    const same = ledger(r, r);
    assert.equal(same.outcome, 'known-failures');
    assert.equal(new FinishGate().check(same, 'done'), undefined);
  });

  test("the same step failing when the baseline passed is the run's doing: said, and the finish is refused once", () => {
    const r = runOf('npm-tap16-posttest-lint.txt');
    assert.equal(verdictOf(r, PASSED), 'tests passed; script "posttest" (lint) failed, and did not before the run');
    const tests = ledger(PASSED, r);
    assert.equal(tests.outcome, 'failed');
    const gate = new FinishGate();
    assert.match(
      gate.check(tests, 'done') ?? '',
      /every test passed after your last edit and script "posttest" \(lint\) failed, which did not before the run, so the run was not ended\. This step is not a test/,
    );
    assert.equal(gate.check(tests, 'done'), undefined, 'never twice');
  });

  test('a baseline whose tests failed never reached the step: said as such, not "did not fail before"', () => {
    const r = runOf('npm-tap16-posttest-lint.txt');
    assert.equal(
      verdictOf(r, named(['test/x.js'])),
      'tests passed; script "posttest" (lint) failed; before the run the command failed earlier (its tests), so this step was not reached then',
    );
  });

  test('a coverage threshold after every test passed is a step too', () => {
    const r = runOf('npm-tap16-coverage-threshold.txt');
    assert.deepEqual([r.failing, r.unnamedFailure, r.failedSteps], [[], false, ['the coverage threshold check']]);
    assert.equal(verdictOf(r, r), 'tests passed; the coverage threshold check failed, as it did before the run');
  });

  test('a failing test run is not a failed step: npm stops there', () => {
    const r = runOf('tap16-timeout-file.txt');
    assert.equal(r.failedSteps, undefined);
  });
});

describe('a command that fails without naming a test: the words are true for the baseline', () => {
  const unnamed = named([], undefined, true);
  test('the baseline failed naming tests: not "did not before the run"', () => {
    const v = verdictOf(unnamed, named(['test_x']));
    assert.equal(v, 'tests FAILED: a command failed without naming a test; before the run it failed too, but naming 1 test (test_x)');
    const gate = new FinishGate().check(ledger(named(['test_x']), unnamed), 'done') ?? '';
    assert.match(gate, /without naming a test; before the run it failed too, but naming 1 test \(test_x\)/);
    assert.doesNotMatch(gate + v, /did not (fail )?before the run/);
  });
  test('the baseline passed: "did not before the run" is true', () => {
    assert.equal(verdictOf(unnamed, PASSED), 'tests FAILED: a command failed without naming a test, and did not before the run (the tests passed then)');
    assert.match(new FinishGate().check(ledger(PASSED, unnamed), 'done') ?? '', /without naming a test, and did not before the run \(the tests passed then\)/);
  });
  test('no baseline: no claim about before the run', () => {
    const tests = new TestsAfterLastChange();
    tests.changed();
    tests.ranReport(unnamed);
    assert.doesNotMatch(new FinishGate().check(tests, 'done') ?? '', /before the run \(|did not fail before|as it did/);
  });
});
