import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeTestCommand, failureExcerpt, summarizeTestOutput } from '../../../src/core/testRuns';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');

/** The recorded node-tap run grown to the size of the one in issue 30: thousands of passing subtests before the one failure. */
function hugeTapRun(): string {
  const lines = fixture('tap-coverage.txt').split('\n');
  const at = lines.findIndex((l) => l.includes('# Subtest: mod2'));
  const passing = Array.from({ length: 1500 }, (_, i) => [
    `    # Subtest: extra ${i}`,
    '        ok 1 - should be equal',
    '        1..1',
    `    ok ${i + 70} - extra ${i} # time=0.2ms`,
  ]).flat();
  return [...lines.slice(0, at), ...passing, ...lines.slice(at)].join('\n');
}

describe('the excerpt of a failing run: failures and counts, not head and tail', () => {
  test('the one not ok in the middle of 6,000 lines and a coverage table is kept, with the final counts', () => {
    const output = hugeTapRun();
    assert.ok(output.split('\n').length > 6000);
    const excerpt = failureExcerpt(output, summarizeTestOutput(output), 6000);
    assert.ok(excerpt.length <= 6000, `${excerpt.length} chars`);
    assert.match(excerpt, /not ok 1 - f3\(2\) is six, not seven/);
    assert.match(excerpt, /-7\n\s+\+6/);
    assert.match(excerpt, /# \{ total: 61, pass: 60, fail: 1 \}/);
    assert.doesNotMatch(excerpt, /mod17\.js\s+\|/, 'the coverage table is dropped');
    assert.doesNotMatch(excerpt, /extra 700/, 'passing subtests are dropped');
  });

  test('the tool result names the failing test and its values before the output', () => {
    const output = hugeTapRun();
    const text = describeTestCommand({ command: 'npm test', exitCode: 1, durationMs: 53000, timedOut: false, output, summary: summarizeTestOutput(output) });
    assert.match(
      text,
      /^\$ npm test\nexit 1 after 53\.0 s\ntap: 60 passed, 1 failed\n {2}FAIL test\/sum\.test\.js > triples two > f3\(2\) is six, not seven\n/,
    );
  });

  test('many failures: every failure line stays even when the blocks around them must shrink', () => {
    const output = Array.from({ length: 400 }, (_, i) => `not ok ${i + 1} - case ${i}\n  ---\n  error: 'boom ${i}'\n  stack: ${'x'.repeat(80)}\n  ...`).join(
      '\n',
    );
    const excerpt = failureExcerpt(output, summarizeTestOutput(output), 6000);
    for (let i = 0; i < 400; i++) assert.ok(excerpt.includes(`not ok ${i + 1} - case ${i}\n`) || excerpt.endsWith(`case ${i}`), `case ${i}`);
  });

  test('short output is given whole', () => {
    assert.equal(failureExcerpt('FAIL x\n', { failures: [] }, 6000), 'FAIL x');
  });
});

describe('a coverage threshold that failed the run', () => {
  test('node-tap 16 through npm test: the threshold lines and the rows below 100% stay, fully covered rows go', () => {
    const output = fixture('npm-tap16-coverage-threshold.txt');
    const text = describeTestCommand({ command: 'npm test', exitCode: 1, durationMs: 9000, timedOut: false, output, summary: summarizeTestOutput(output) });
    assert.match(text, /^failed step: the coverage threshold check, after every test passed$/m);
    for (const kind of ['lines (98.83%)', 'functions (98.79%)', 'branches (50%)', 'statements (98.8%)'])
      assert.ok(text.includes(`ERROR: Coverage for ${kind} does not meet global threshold (100%)`), kind);
    assert.match(text, /^File +\| % Stmts/m);
    assert.match(text, /^All files +\| +98\.8 \|/m);
    assert.match(text, /^ {2}add\.js +\| +75 \| +50 \| +66\.66 \| +83\.33 \| 5 +$/m);
    assert.doesNotMatch(text, /compare-module-17\.js/, 'fully covered rows are dropped');
    assert.doesNotMatch(text, /# time=/, 'timings of passing files are dropped');
  });

  test("jest's values stay under every failure when the budget keeps only a few lines of each (dayjs, 10 failures listed twice)", () => {
    const output = fixture('jest22-chained-whole.txt');
    const excerpt = failureExcerpt(output, summarizeTestOutput(output), 6000);
    assert.ok(excerpt.length <= 6000, `${excerpt.length} chars`);
    assert.match(
      excerpt,
      /● DST, a time that never existed Fall Back › 2012-11-04 01:59:59\n.*\n {4}Expected value to be:\n {6}"2012-11-04T01:59:59-04:00"\n {4}Received:\n {6}"2012-11-04T01:59:59-05:00"/,
    );
    assert.match(excerpt, /^Tests: {7}10 failed, 555 passed, 565 total$/m);
  });
});
