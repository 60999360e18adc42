// The baseline in one line for the model, on real runners' output (test/fixtures/testRuns): the
// failing tests by name with the runner's counts, a failed step with the files it names, a pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { baselineNote, reportOf, summarizeTestOutput, unnamedComparedWithBaseline, type TestCommandResult } from '../../../src/core/testRuns';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');
const baselineOf = (file: string, exitCode = 1, root?: string) => {
  const output = fixture(file);
  const result: TestCommandResult = { command: 'npm test', exitCode, durationMs: 1000, timedOut: false, output, summary: summarizeTestOutput(output) };
  return reportOf([result], { narrowed: false, changedFiles: [], ...(root ? { root } : {}) });
};
const HEAD = 'Before your changes (the whole suite, run once before your first edit, 53.2 s):';

test('jest: the failing tests by name, out of the runner count', () => {
  const note = baselineNote(baselineOf('jest.txt'), 53_200);
  assert.match(note, new RegExp(`^${HEAD.replace(/[()]/g, '\\$&')} \\d+ of \\d+ tests? failed: .+\\. What failed then does not block finish\\.$`));
  assert.equal(note.split('\n').length, 1);
});

test('a posttest lint after every test passed: the step and the file it names', () => {
  assert.equal(
    baselineNote(baselineOf('npm-tap16-posttest-lint.txt', 1, '/tmp/h1rec'), 53_200),
    `${HEAD} script "posttest" (lint) failed in lib/functions/compare-module-3.js. What failed then does not block finish.`,
  );
});

test('a passing suite: every test passed, with the count; without a duration none is claimed', () => {
  const passed = baselineOf('npm-tap14-narrowed-coverage.txt');
  assert.equal(
    baselineNote({ ...passed, failedSteps: [] }),
    'Before your changes (the whole suite, run once before your first edit): every test passed (1 passed).',
  );
});

test('many failures: five names, the rest counted, long names shortened', () => {
  const failing = Array.from({ length: 8 }, (_, i) => `test/t${i}.js > ${'x'.repeat(i === 0 ? 200 : 3)}`);
  const note = baselineNote({ narrowed: false, failing, flaky: [], unnamedFailure: false, aimedAt: [], counts: { passed: 300, failed: 8 } });
  assert.match(note, /: 8 of 308 tests failed: test\/t0\.js > x{84}\.\.\., test\/t1\.js > xxx, .*test\/t4\.js > xxx and 3 more\./);
});

test('a baseline the time limit killed says it timed out, not that a command failed without naming a test', () => {
  const output = 'TAP version 13\n# Subtest: test/slow.js\n';
  const result: TestCommandResult = { command: 'npm test', exitCode: null, durationMs: 300_400, timedOut: true, output, summary: summarizeTestOutput(output) };
  const report = reportOf([result], { narrowed: false, changedFiles: [] });
  assert.deepEqual(report.timedOut, [{ command: 'npm test', seconds: 300 }]);
  assert.equal(
    baselineNote(report, 300_400),
    'Before your changes (the whole suite, run once before your first edit, 300.4 s): npm test timed out after 300 s (the limit, patchpilot.tests.timeoutSeconds) and was killed. What failed then does not block finish.',
  );
  assert.equal(unnamedComparedWithBaseline(report), ', as it did before the run (then npm test timed out after 300 s)');
});

test('a file tap ended for its timeout says so beside its name: a limit under load is not a bug (relay: semver)', () => {
  for (const file of ['tap14-files-ended.txt', 'tap18-timeout.txt']) {
    const note = baselineNote(baselineOf(file), 53_200);
    assert.match(note, /failed: [^;]*\(timed out( after [\d.]+ s)?: tap's per-file time limit\)/, `${file}: ${note}`);
  }
});
