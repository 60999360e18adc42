// Which step of a test command failed, read from the real output of npm and make on fixture
// projects whose test command lints (or builds) before its test runner runs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { failingStep } from '../../../src/core/testRuns/failingStep';
import { summarizeTestOutput } from '../../../src/core/testRuns/runners';

const LINT_FAILS = `node -e "console.error('src/a.js: 1:1 error no-unused-vars'); process.exit(1)"`;

async function outputOf(files: Record<string, string>, command: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'pp-step-'));
  try {
    for (const [rel, text] of Object.entries(files)) await writeFile(path.join(root, rel), text);
    // Without the parent's test-runner context, a child `node --test` reports as it does for a user.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const r = spawnSync(command, { cwd: root, shell: true, encoding: 'utf8', env });
    assert.notEqual(r.status, 0, 'the fixture fails');
    return r.stdout + r.stderr;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const step = (output: string) => failingStep(output, summarizeTestOutput(output));

describe('failingStep on real output', () => {
  test('npm test that runs "npm run lint" first: the lint script is named with its command', async () => {
    const pkg = { name: 'fx', version: '1.0.0', scripts: { lint: LINT_FAILS, test: 'npm run lint && node --test' } };
    const out = await outputOf({ 'package.json': JSON.stringify(pkg) }, 'npm test');
    assert.equal(step(out), `script "lint" (\`${LINT_FAILS}\`) failed before any test ran`);
  });

  test('a script chaining a step before its runner: the step before the runner is named', async () => {
    const pkg = { name: 'fx', version: '1.0.0', scripts: { test: 'node -e "process.exit(1)" && node --test' } };
    const out = await outputOf({ 'package.json': JSON.stringify(pkg) }, 'npm test');
    assert.equal(step(out), 'script "test" failed at its step `node -e "process.exit(1)"`, before its test runner (`node --test`) ran');
  });

  test(
    "make test whose prerequisite fails: make's target and line",
    { skip: spawnSync('make', ['--version']).status !== 0 && 'make is not installed' },
    async () => {
      const out = await outputOf({ Makefile: 'lint:\n\tnode -e "process.exit(2)"\n\ntest: lint\n\tnode --test\n' }, 'make test');
      assert.equal(step(out), 'make target "lint" (Makefile:2) failed with exit 2');
    },
  );

  test('a failing test run is the runner, not a step: no step is named', async () => {
    const t = "const { test } = require('node:test');\ntest('x', () => { throw new Error('boom'); });\n";
    const pkg = { name: 'fx', version: '1.0.0', scripts: { test: 'node -e "0" && node --test' } };
    const out = await outputOf({ 'package.json': JSON.stringify(pkg), 'x.test.js': t }, 'npm test');
    assert.equal(step(out), undefined);
  });

  test('tox 4 and nox lines (their own words; neither tool is installed here)', () => {
    const tox =
      'lint: commands[0]> flake8 src\nsrc/a.py:1:1: F401 unused\nlint: exit 1 (0.31 seconds) /repo> flake8 src pid=4242\n  lint: FAIL code 1 (0.40 seconds)\n';
    assert.equal(step(tox), 'tox environment "lint": `flake8 src` failed with exit 1');
    const nox =
      'nox > Running session lint\nnox > flake8 src\nsrc/a.py:1:1: F401\nnox > Command flake8 src failed with exit code 1\nnox > Session lint failed.\n';
    assert.equal(step(nox), 'nox session "lint": `flake8 src` failed with exit 1');
  });
});
