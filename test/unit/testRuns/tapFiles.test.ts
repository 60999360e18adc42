// node-tap reports each test file's process as a top-level result; a file whose run was ended (tap's
// per-file timer, a crash) is one failure in plain words, counted as a file, not as one more test.
// Real node-tap 14.11 output (test/fixtures/testRuns/README.md): tap14-files-ended.txt is
// `tap --no-coverage --timeout=3 -R tap test/` on four files: one crashes (process.exit), one fails
// an assertion, one passes, one outlasts the timer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatTestSummary, summarizeTestOutput } from '../../../src/core/testRuns';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');

test('files and tests are counted apart: a file the timer ended and a crashed file are failures of their own, in plain words', () => {
  const summary = summarizeTestOutput(fixture('tap14-files-ended.txt'));
  assert.deepEqual(
    summary.failures.map((f) => f.name),
    ['test/crash.js', 'test/fails.js > compares > one plus one', 'test/slow.js'],
  );
  const text = formatTestSummary(summary);
  assert.match(text, /^tap: 3 test files failed \(2 of their subtests did not finish\), 1 test file passed$/m);
  assert.match(
    text,
    /^ {2}FAIL test\/crash\.js\n {7}the file's process was ended by SIGTERM after 0\.2 s, before tap's timeout, its subtest writes a file did not finish$/m,
  );
  assert.match(
    text,
    /^ {2}FAIL test\/slow\.js\n {7}the file's run was ended after 3\.1 s \(tap's per-file time limit of 3 s, set by --timeout or TAP_TIMEOUT; not a test's assertion\), its subtest sorts a long list did not finish$/m,
  );
  // The process block's `timeout: 3000` is never shown as if a test had asserted it; the `timeout!` results fold into their file.
  assert.doesNotMatch(text, /timeout: 3000|timeout!/);
  assert.doesNotMatch(text, /\(and \d+ more\)/);
});

test('a file failing only because a subtest asserted wrongly is not one more failure: the subtest is', () => {
  const summary = summarizeTestOutput(fixture('tap14-named-after.txt'));
  assert.deepEqual(
    summary.failures.map((f) => f.name),
    ['test/parse.js > parse > reads a zero'],
  );
  assert.match(formatTestSummary(summary), /^tap: 1 test file failed, 0 test files passed$/m);
});

test('the timer ended a file before its running subtest printed anything: said so, the subtest not invented', () => {
  const summary = summarizeTestOutput(fixture('tap14-timeout-unnamed.txt'));
  assert.deepEqual(
    summary.failures.map((f) => [f.name, f.message]),
    [
      [
        'test/slow.js',
        "the file's run was ended after 3 s (tap's per-file time limit of 3 s, set by --timeout or TAP_TIMEOUT; not a test's assertion) (the output does not name the subtest it was running)",
      ],
    ],
  );
  assert.match(formatTestSummary(summary), /^tap: 1 test file failed, 1 test file passed$/m);
});

test('node-tap 16 names the subtests whose headers never got a result: the ones the timer cut', () => {
  const summary = summarizeTestOutput(fixture('tap16-timeout-file.txt'));
  assert.match(summary.failures[0]!.message!, /its subtest cli runs did not finish$/);
  assert.equal(summary.unfinished, 1);
});

test('TAP that is not node-tap (tape, node --test) keeps counting tests', () => {
  for (const file of ['tape.txt', 'node-tap.txt']) assert.equal(summarizeTestOutput(fixture(file)).countsFiles, undefined, file);
});

test('node-tap 18 reports the timer on its own (`not ok 2 - timeout!`, `expired: test/slow.js`): the file it ended is the failure', () => {
  const summary = summarizeTestOutput(fixture('tap18-timeout.txt'));
  assert.deepEqual(
    summary.failures.map((f) => [f.name, f.file]),
    [['test/slow.js', 'test/slow.js']],
  );
  assert.match(
    summary.failures[0]!.message!,
    /^the file's run was ended \(tap's per-file time limit, set by --timeout or TAP_TIMEOUT; not a test's assertion\)/,
  );
});
