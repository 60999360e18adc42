import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { summarizeTestOutput } from '../../../src/core/testRuns';
import { tempWorkspace } from '../tools/helpers';

const nodeTests = `
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
describe('math', () => {
  test('adds', () => assert.equal(1 + 1, 2));
  test('subtracts', () => assert.equal(3 - 1, 1));
});
test('top fails', () => { throw new Error('boom here'); });
`;

function run(cmd: string, args: string[], cwd: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.NODE_TEST_CONTEXT; // else the child runner talks to ours instead of printing
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env });
  return r.stdout + r.stderr;
}

describe('test output summaries from real runners', () => {
  for (const reporter of ['tap', 'spec']) {
    test(`node --test (${reporter} reporter): counts and the failing leaves with their first error line`, () => {
      const ws = tempWorkspace({ 't.test.js': nodeTests });
      try {
        const s = summarizeTestOutput(run(process.execPath, ['--test', `--test-reporter=${reporter}`, 't.test.js'], ws.root));
        assert.equal(s.framework, 'node');
        assert.equal(s.passed, 1);
        assert.equal(s.failed, 2);
        assert.deepEqual(
          s.failures.map((f) => f.name),
          ['math > subtracts', 'top fails'],
        );
        assert.match(s.failures[0]!.message ?? '', /Expected values to be strictly equal/);
        assert.match(s.failures[1]!.message ?? '', /boom here/);
      } finally {
        ws.cleanup();
      }
    });
  }

  const pytest = spawnSync('python3', ['-m', 'pytest', '--version']).status === 0;
  test('pytest: short summary lines and totals', { skip: pytest ? false : 'pytest not installed' }, () => {
    const ws = tempWorkspace({
      'test_calc.py': 'def add(a, b):\n    return a - b\n\ndef test_add():\n    assert add(2, 2) == 4\n\ndef test_ok():\n    assert True\n',
    });
    try {
      for (const flags of [[], ['-q']]) {
        const s = summarizeTestOutput(run('python3', ['-m', 'pytest', '-p', 'no:cacheprovider', ...flags, 'test_calc.py'], ws.root));
        assert.deepEqual([s.framework, s.passed, s.failed], ['pytest', 1, 1]);
        assert.deepEqual(
          s.failures.map((f) => [f.name, f.message, f.file]),
          [['test_calc.py::test_add', 'assert 0 == 4\n+  where 0 = add(2, 2)', 'test_calc.py']],
        );
      }
    } finally {
      ws.cleanup();
    }
  });
});

describe('test output summaries: edge cases', () => {
  test('unknown output gives no counts rather than wrong ones; ANSI colours are ignored', () => {
    assert.deepEqual(summarizeTestOutput('make: *** [check] Error 2\n'), { failures: [] });
    const colored = '\x1b[31m1 failed\x1b[0m, \x1b[32m3 passed\x1b[0m in 0.10s\nFAILED t.py::x - boom\n';
    assert.equal(summarizeTestOutput(colored).failed, 1);
    assert.equal(summarizeTestOutput(colored).passed, 3);
  });
});
