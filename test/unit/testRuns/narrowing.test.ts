import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { directRunnerCommand, narrowCommand, narrowingIgnored, runnerOfCommand, summarizeTestOutput } from '../../../src/core/testRuns';

describe('narrowing a test command per runner', () => {
  const cases: [command: string, runner: Parameters<typeof narrowCommand>[1], narrowing: Parameters<typeof narrowCommand>[2], expected: string][] = [
    ['npx jest', undefined, { files: ['src/a.test.ts'], name: 'adds two' }, "npx jest src/a.test.ts -t 'adds two'"],
    ['npm test', 'vitest', { name: 'adds' }, 'npm test -- -t adds'],
    ['npm test', 'mocha', { name: 'math adds' }, "npm test -- --grep 'math adds'"],
    // node --test reads every word after its first file as a file: its flags go right after --test.
    ['node --test', undefined, { files: ['t/a.test.js'], name: 'adds' }, 'node --test --test-name-pattern=adds t/a.test.js'],
    ['node --test test/', undefined, { name: 'adds', filter: '--test-only' }, 'node --test --test-name-pattern=adds --test-only test/'],
    ['c8 node --no-warnings --test', undefined, { files: ['a.test.js'], name: 'a b' }, "c8 node --no-warnings --test '--test-name-pattern=a b' a.test.js"],
    ['npm test', 'node', { files: ['t/a.test.js'], name: 'adds' }, 'npm test -- --test-name-pattern=adds t/a.test.js'],
    ['python -m pytest', undefined, { files: ['tests/test_a.py::test_x'], name: 'x and not y' }, "python -m pytest tests/test_a.py::test_x -k 'x and not y'"],
    ['go test ./...', undefined, { files: ['pkg/calc/calc_test.go'], name: 'TestAdd' }, 'go test ./pkg/calc -run TestAdd'],
    ['cargo test', undefined, { name: 'tests::adds' }, 'cargo test tests::adds'],
    ['pnpm test', 'tap', { files: ['test/sum.test.js'] }, 'pnpm test test/sum.test.js'],
    ['npx tap', 'tap', { files: ['test/sum.js'], name: 'adds' }, 'npx tap test/sum.js --grep=adds'],
    ['npm test', 'jest', { filter: '--bail --ci' }, 'npm test -- --bail --ci'],
  ];
  for (const [command, runner, narrowing, expected] of cases) {
    test(`${command} (${runner ?? runnerOfCommand(command)}) ${JSON.stringify(narrowing)}`, () => {
      assert.deepEqual(narrowCommand(command, runner, narrowing), { command: expected });
    });
  }

  test('what the model passes is quoted, never shell syntax', () => {
    assert.deepEqual(narrowCommand('npx jest', undefined, { name: "x'; rm -rf / #" }), { command: "npx jest -t 'x'\\''; rm -rf / #'" });
    assert.deepEqual(narrowCommand('npx jest', undefined, { filter: '$(touch pwned) `id`' }), { command: "npx jest '$(touch' 'pwned)' '`id`'" });
  });

  test('a command whose runner is unknown, and a runner that cannot take what was asked, say so', () => {
    assert.match((narrowCommand('make test', undefined, { files: ['a'] }) as { error: string }).error, /cannot be narrowed/);
    assert.match((narrowCommand('cargo test', undefined, { files: ['src/lib.rs'] }) as { error: string }).error, /by test name/);
  });

  test('tape and prove have no name filter: files alone, said; a name alone is refused with what to pass instead', () => {
    const tape = summarizeTestOutput(readFileSync(path.join(__dirname, '../../fixtures/testRuns/tape.txt'), 'utf8')).framework;
    assert.equal(tape, 'tape');
    assert.equal(runnerOfCommand('tape test/*.js'), 'tape');
    assert.equal(runnerOfCommand('prove -v t/'), 'prove');
    assert.deepEqual(narrowCommand('npm test', tape, { files: ['test/sum.js'], name: 'adds' }), {
      command: 'npm test -- test/sum.js',
      note: 'tape has no test-name filter: ran the files only, every test in them',
    });
    assert.match(
      (narrowCommand('prove -v t/', undefined, { name: 'math works' }) as { error: string }).error,
      /prove has no test-name filter: pass the test's files/,
    );
  });
});

describe('whether a narrowed run took its narrowing', () => {
  test('ignored only when both counts are known and both runs ran to their end', () => {
    assert.equal(narrowingIgnored(3, { tests: 3, passed: true }), true);
    assert.equal(narrowingIgnored(565, { tests: 30, passed: true }), false);
    // dayjs: a chained `npm test` stops at its first failing jest run, before the narrowed one: its count says nothing.
    assert.equal(narrowingIgnored(5, { tests: 5, passed: false }), false);
    assert.equal(narrowingIgnored(undefined, { tests: 5, passed: true }), false, 'no complete whole-suite count yet');
    assert.equal(narrowingIgnored(5, { passed: true }), false, 'the narrowed output gave no count');
  });

  test('the runner itself, aimed at the narrowing, for run_command', () => {
    assert.equal(directRunnerCommand('tape', { files: ['test/stringify.js'] }), 'npx tape test/stringify.js');
    assert.equal(directRunnerCommand('jest', { files: ['test/plugin/utc.test.js'], name: 'utcOffset' }), 'npx jest test/plugin/utc.test.js -t utcOffset');
    assert.equal(directRunnerCommand('tape', { name: 'adds' }), undefined, 'tape cannot take a name alone');
    assert.equal(directRunnerCommand(undefined, { files: ['a.js'] }), undefined);
  });
});
