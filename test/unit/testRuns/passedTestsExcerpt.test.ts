import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeTestCommand, outputPartlyShown, summarizeTestOutput, type TestCommandResult } from '../../../src/core/testRuns';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../fixtures/testRuns', name), 'utf8');

/** A passing test's result line at any depth of the TAP tree: `ok 3 - should be equal`. */
const PASSING_LINE = /^\s*ok \d+\b/m;

/**
 * A recorded run cut to the size of a narrowed one (dozens of `ok` lines, under the 6,000-character
 * budget that used to paste it whole): each cut takes out the lines after `from` up to `to`, the
 * next cut looking below the previous one.
 */
function narrowedCut(name: string, ...cuts: [from: RegExp, to: RegExp][]): string {
  let lines = fixture(name).split('\n');
  let below = 0;
  for (const [from, to] of cuts) {
    const start = lines.findIndex((l, i) => i >= below && from.test(l)) + 1;
    const end = lines.findIndex((l, i) => i >= start && to.test(l));
    assert.ok(start > 0 && end > start, `${from} .. ${to} found`);
    lines = [...lines.slice(0, start), ...lines.slice(end)];
    below = start;
  }
  return lines.join('\n');
}

function shown(output: string): { text: string; result: TestCommandResult } {
  const result: TestCommandResult = { command: 'npm test', exitCode: 1, durationMs: 9000, timedOut: false, output, summary: summarizeTestOutput(output) };
  return { text: describeTestCommand(result), result };
}

describe('a run whose tests all passed and a later step failed: the step and the counts, no passing tests', () => {
  const lintLines = [
    /2:19 {2}error {2}Extra semicolon {2}semi/,
    /lib\/functions\/compare-module-3\.js/,
    /✖ 1 problem \(1 error, 0 warnings\)/,
    /> eslint lib test/,
  ];
  const coverageLines = [
    /ERROR: Coverage for lines \(63\.03%\) does not meet global threshold \(100%\)/,
    /ERROR: Coverage for branches \(53\.95%\) does not meet global threshold \(100%\)/,
    /semver\.js +\| +42 \|.*79,281,282,283/,
    /debug\.js +\| +66\.67/,
  ];

  test('node-tap 16, posttest lint: the lint lines and the counts stay, no ok line', () => {
    const output = fixture('npm-tap16-posttest-lint.txt');
    assert.ok(output.match(new RegExp(PASSING_LINE.source, 'gm'))!.length >= 90, 'the input has its passing tree');
    const { text, result } = shown(output);
    assert.doesNotMatch(text, PASSING_LINE);
    for (const line of lintLines) assert.match(text, line);
    assert.match(text, /^tap: \d+ test files? passed$/m, "the runner's counts");
    assert.match(text, /failed step: script "posttest" \(lint\), after every test passed/);
    assert.doesNotMatch(text, /compare-module-42\.js +\| +100/, 'fully covered rows go');
    assert.ok(outputPartlyShown(result), 'the whole output is kept for read_file');
  });

  for (const [label, output] of [
    ['the whole recording', fixture('npm-tap14-narrowed-coverage.txt')],
    [
      'cut under the budget',
      narrowedCut('npm-tap14-narrowed-coverage.txt', [/^ {8}ok 8 - /, /^ {4}ok 1 - comparison tests/], [/^ {8}ok 8 - /, /^ {4}ok 2 - equality tests/]),
    ],
  ] as const) {
    test(`node-tap 14, narrowed, coverage threshold (${label}): the threshold lines, the rows below 100% and the counts stay, no ok line`, () => {
      assert.ok(output.match(new RegExp(PASSING_LINE.source, 'gm'))!.length >= 60, 'the input has its passing tree');
      assert.ok(label === 'the whole recording' || output.length < 6000, `${output.length} chars`);
      const { text, result } = shown(output);
      assert.doesNotMatch(text, PASSING_LINE);
      for (const line of coverageLines) assert.match(text, line);
      assert.match(text, /^tap: 1 test file passed$/m, "the runner's counts");
      assert.match(text, /failed step: the coverage threshold check, after every test passed/);
      assert.doesNotMatch(text, /gt\.js +\| +100/, 'fully covered rows go');
      assert.ok(outputPartlyShown(result), 'the whole output is kept for read_file');
    });
  }

  test('a short failing run is still shown whole: only a run whose tests all passed loses its passing lines', () => {
    const output = fixture('tap.txt');
    const { text, result } = shown(output);
    assert.ok(output.length < 6000 && summarizeTestOutput(output).failed);
    assert.ok(text.endsWith(output.trimEnd()), 'the whole output follows the summary');
    assert.ok(!outputPartlyShown(result));
  });
});
