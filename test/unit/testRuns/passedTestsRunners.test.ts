import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describeTestCommand, summarizeTestOutput } from '../../../src/core/testRuns';
import { tempWorkspace } from '../tools/helpers';

/**
 * Real runners whose 40 tests all pass, then a real lint step that fails (eslint, as a posttest
 * does): the tool result keeps the lint's lines and the runner's counts and none of the passing
 * tests' lines, whatever the runner prints for a pass.
 */
const COUNT = 40;
const ESLINT = path.join(__dirname, '../../../node_modules/.bin/eslint');
const LINT = `${ESLINT} --no-config-lookup --rule '{"semi":["error","always"]}' lib`;

const files = (name: (i: number) => string, body: (i: number) => string) => Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [name(i), body(i)]));
const runners: { name: string; command: string; files: Record<string, string>; passing: RegExp; available: () => boolean }[] = [
  {
    name: 'pytest -v',
    command: 'python3 -m pytest -v -p no:cacheprovider tests',
    files: files(
      (i) => `tests/test_m${i}.py`,
      (i) => `def test_adds_${i}():\n    assert ${i} + 1 == ${i + 1}\n`,
    ),
    passing: /PASSED/,
    available: () => spawnSync('python3', ['-m', 'pytest', '--version']).status === 0,
  },
  {
    name: 'python -m unittest -v',
    command: 'python3 -m unittest discover -v -s tests',
    files: files(
      (i) => `tests/test_m${i}.py`,
      (i) => `import unittest\nclass T(unittest.TestCase):\n    def test_adds_${i}(self):\n        self.assertEqual(${i} + 1, ${i + 1})\n`,
    ),
    passing: /\.\.\. ok$/m,
    available: () => spawnSync('python3', ['--version']).status === 0,
  },
  {
    name: 'node --test (spec)',
    command: `"${process.execPath}" --test --test-reporter=spec test/`,
    files: {
      'test/m.test.js': `const { test } = require('node:test');\nconst assert = require('node:assert');\n${Array.from({ length: COUNT }, (_, i) => `test('adds ${i}', () => assert.equal(${i} + 1, ${i + 1}));`).join('\n')}\n`,
    },
    passing: /✔ adds/,
    available: () => true,
  },
  {
    name: 'mocha',
    command: `${path.join(__dirname, '../../../node_modules/.bin/mocha')} --ui tdd 'test/*.test.js'`,
    files: files(
      (i) => `test/m${i}.test.js`,
      (i) => `const assert = require('node:assert');\ntest('adds ${i}', () => assert.equal(${i} + 1, ${i + 1}));\n`,
    ),
    passing: /✔ adds/,
    available: () => true,
  },
];

describe("a real runner's passing tests, then a failing lint: the lint and the counts, no passing line", () => {
  for (const r of runners) {
    test(r.name, { skip: !r.available() && `${r.name} is not installed` }, () => {
      const ws = tempWorkspace({ ...r.files, 'lib/a.js': 'const a = 1;\nmodule.exports = a\n' });
      try {
        const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
        delete env.NODE_TEST_CONTEXT; // else a child node --test talks to ours instead of printing
        const run = spawnSync(`${r.command} && ${LINT}`, { cwd: ws.root, shell: true, encoding: 'utf8', env });
        const output = run.stdout + run.stderr;
        assert.equal(run.status, 1, output);
        assert.ok(output.match(new RegExp(r.passing.source, 'gm'))!.length >= COUNT, `the runner printed its passes:\n${output}`);
        const summary = summarizeTestOutput(output);
        assert.equal(summary.failures.length, 0, output);
        const text = describeTestCommand({ command: r.command, exitCode: 1, durationMs: 1000, timedOut: false, output, summary });
        assert.doesNotMatch(text.slice(text.indexOf('--- output ---')), r.passing, text);
        assert.match(text, /2:19 {2}error {2}Missing semicolon {2}semi/);
        assert.match(text, /✖ 1 problem/);
        assert.match(text, new RegExp(`\\b${COUNT} passed\\b`), "the runner's counts");
      } finally {
        ws.cleanup();
      }
    });
  }
});
