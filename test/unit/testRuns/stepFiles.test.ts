// A check step after the tests (npm's posttest lint) that the baseline never reached, because its tests
// failed first (a node-tap timeout), is judged by the files its output names: only files the run did not
// change make it pre-existing; a changed one makes it the run's. Real npm, node-tap 16 and eslint output,
// whole and cut by the output cap as a long run's is.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CappedOutput } from '../../../src/core/sandbox/cappedOutput';
import { classifySteps, describeTestCommand, reportOf, summarizeTestOutput, verdictOf, type TestCommandResult } from '../../../src/core/testRuns';
import { changedAmong, filesNamedByCheck } from '../../../src/core/testRuns/stepFiles';
import { TestsAfterLastChange } from '../../../src/core/orchestrator/testsOutcome';
import { FinishGate } from '../../../src/core/orchestrator/finishGate';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');
const POSTTEST_LINT = fixture('npm-tap16-posttest-lint.txt');
const ROOT = '/tmp/h1rec';

function result(output: string, exitCode: number): TestCommandResult {
  return { command: 'npm test', exitCode, durationMs: 1000, timedOut: false, output, summary: summarizeTestOutput(output) };
}

/** The baseline: node-tap 16 timed out in test/bin/semver.js, so npm never reached posttest. */
const baseline = reportOf([result(fixture('tap16-timeout-subtest.txt'), 1)], { narrowed: false });

/** The posttest run repeated to `times` x 81 test files, renumbered, then cut the way the task runner caps output. */
function longRun(times: number): { whole: string; cut: string; dropped: number } {
  const start = POSTTEST_LINT.indexOf('# Subtest: ');
  const planAt = POSTTEST_LINT.indexOf('\n1..81\n');
  const blocks = POSTTEST_LINT.slice(start, planAt + 1);
  let n = 0;
  const repeated = Array.from({ length: times }, () => blocks.replace(/^ok \d+ /gm, () => `ok ${++n} `)).join('');
  const whole = POSTTEST_LINT.slice(0, start) + repeated + POSTTEST_LINT.slice(planAt + 1).replace(/^1\.\.81$/m, `1..${n}`);
  // Cut where a command that prints without end is cut: past the spill limit (here as small as the memory cap).
  const capped = new CappedOutput(200_000, 200_000);
  capped.push(Buffer.from(whole));
  return { whole, cut: capped.text(), dropped: capped.droppedBytes };
}

describe('files a failing check names', () => {
  test("eslint's stylish report on the fixture: the path under the header, relative to the root", () => {
    assert.deepEqual(filesNamedByCheck(POSTTEST_LINT, ROOT), ['lib/functions/compare-module-3.js']);
  });

  test('eslint unix, flake8, ruff, mypy and tsc lines; stack frames and coverage rows are not files a check names', () => {
    const out = [
      "bin/semver.js:140:18: 'i' is defined but never used [Error/no-unused-vars]",
      'classes/range.js:462:24: Unexpected constant condition [Error/no-constant-condition]',
      'pkg/mod.py:3:1: E302 expected 2 blank lines, found 1',
      'pkg/other.py:7: error: Incompatible return value type',
      'src/a.ts(3,7): error TS2322: Type string is not assignable to type number.',
      '    at Object.<anonymous> (/repo/test/x.js:3:5)',
      '  add.js               |     100 |      100 |     100 |     100 |',
    ].join('\n');
    assert.deepEqual(filesNamedByCheck(out), ['bin/semver.js', 'classes/range.js', 'pkg/mod.py', 'pkg/other.py', 'src/a.ts']);
  });

  test('a named file matches the changed file it ends with', () => {
    assert.deepEqual(changedAmong(['lib/a.js', 'lib/b.js'], ['./lib/b.js', 'README.md']), ['lib/b.js']);
  });
});

describe('a posttest lint the baseline never reached', () => {
  test('failing only in files the run did not change: pre-existing, a known failure, no refusal', () => {
    const after = reportOf([result(POSTTEST_LINT, 1)], { narrowed: false, changedFiles: ['lib/add.js'], root: ROOT });
    assert.deepEqual(classifySteps(after, baseline), { fresh: [], asBefore: [], untouched: ['script "posttest" (lint)'] });
    assert.equal(
      verdictOf(after, baseline),
      'tests passed; script "posttest" (lint) fails in files this run did not change: lib/functions/compare-module-3.js; not reached before the run',
    );
    const tests = new TestsAfterLastChange();
    tests.ranReport(baseline);
    tests.changed();
    tests.ranReport(after);
    assert.equal(tests.outcome, 'known-failures');
    assert.deepEqual(tests.failures.newSteps, []);
    assert.equal(new FinishGate().check(tests, 'Fixed the range parser.'), undefined);
  });

  test('failing in a file the run changed: new, named with that file, and the refusal is worded for a step', () => {
    const after = reportOf([result(POSTTEST_LINT, 1)], { narrowed: false, changedFiles: ['lib/functions/compare-module-3.js'], root: ROOT });
    assert.match(
      verdictOf(after, baseline),
      /^tests passed; script "posttest" \(lint\) in files this run changed: lib\/functions\/compare-module-3\.js failed; /,
    );
    const tests = new TestsAfterLastChange();
    tests.ranReport(baseline);
    tests.changed();
    tests.ranReport(after);
    assert.equal(tests.outcome, 'failed');
    const refusal = new FinishGate().check(tests, 'Done.') ?? '';
    assert.match(
      refusal,
      /every test passed after your last edit and script "posttest" \(lint\) in files this run changed: lib\/functions\/compare-module-3\.js failed/,
    );
    assert.match(refusal, /This step is not a test: fix what it reports/);
    assert.doesNotMatch(refusal, /run that test alone/);
  });
});

describe('a long run cut by the output cap', () => {
  test('the counts and the failing step survive the cut, and the step is judged as in the whole output', () => {
    const { whole, cut, dropped } = longRun(30);
    assert.ok(dropped > 100_000, `the run was cut (${dropped} bytes dropped)`);
    const fromWhole = summarizeTestOutput(whole);
    const fromCut = summarizeTestOutput(cut);
    assert.equal(fromWhole.passed, 2430);
    assert.deepEqual({ passed: fromCut.passed, failed: fromCut.failed }, { passed: 2430, failed: 0 });
    const described = describeTestCommand(result(cut, 1));
    assert.match(described, /^failed step: script "posttest" \(lint\), after every test passed$/m);
    assert.match(described, /^tap: 2430 test files passed$/m);
    assert.match(described, /compare-module-3\.js\n\s+2:19\s+error\s+Extra semicolon/);
    const after = reportOf([result(cut, 1)], { narrowed: false, changedFiles: ['lib/add.js'], root: ROOT });
    assert.equal(after.unnamedFailure, false);
    assert.deepEqual(classifySteps(after, baseline).untouched, ['script "posttest" (lint)']);
  });

  test('a cut log whose tail says a file failed counts it failed', () => {
    const { cut } = longRun(30);
    // node-tap 16 prints the failed count between the plan and the time (tap16-timeout-subtest.txt).
    const failedOne = cut.replace(/^(1\.\.2430)\n# time=/m, '$1\n# failed 1 of 2430 tests\n# time=');
    assert.deepEqual({ passed: summarizeTestOutput(failedOne).passed, failed: summarizeTestOutput(failedOne).failed }, { passed: 2429, failed: 1 });
  });
});
