// End to end: the built `patchpilot run` binary finds the project's own test command (no --test-cmd)
// and ends with the state of the tests after its last edit, in the summary and in --json.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo } from './support';

/** The buggy add() with a package.json whose test script is node's own runner. */
const NODE_TEST_PROJECT = { ...BUGGY, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) };
/** The same project with add() already right, and a patch that breaks it: a failure the run introduces. */
const FIXED_PROJECT = { ...NODE_TEST_PROJECT, 'add.js': 'exports.add = (a, b) => a + b;\n' };
const BREAK = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a + b;\n+exports.add = (a, b) => a + b + 1;\n';
const model = (server: { baseUrl: string }) => ['--base-url', server.baseUrl, '--model', 'scripted-model'];

describe('patchpilot run: detected test command, tests in the end state', { skip: skipWithoutBuild }, () => {
  test('without --test-cmd, package.json\'s "node --test" runs after the edit and the header says where it came from', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] }, expect: { lastMessageContains: 'tests passed' } },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runCli(['--goal', 'fix add', '--workspace', root, '--approve', 'auto-edit', ...model(server), '--json']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        assert.match(
          r.stderr,
          /tests: npm test \(detected from package\.json: the package.s own test script \(node --test\), run with npm[^;]*; --no-detect-tests to turn off\)/,
        );
        const ev = events(r.stdout);
        assert.ok(
          ev.some((e) => e.type === 'test/finished' && e.command === 'npm test' && e.exitCode === 0),
          r.stdout,
        );
        assert.equal(ev.at(-1)!.tests, 'passed');
      },
      NODE_TEST_PROJECT,
    );
  });

  test('--no-detect-tests: no test command, nothing runs after the edit', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('run_tests', {})] }, expect: { lastMessageContains: 'applied' } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] }, expect: { lastMessageContains: 'no test commands are configured' } },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runCli(['--goal', 'fix add', '--workspace', root, '--approve', 'auto-edit', '--no-detect-tests', ...model(server), '--json']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        assert.doesNotMatch(r.stderr, /detected from/);
        const ev = events(r.stdout);
        assert.ok(!ev.some((e) => e.type === 'test/started'), r.stdout);
        assert.equal(ev.at(-1)!.tests, 'not-run');
      },
      NODE_TEST_PROJECT,
    );
  });

  test('finish while a test the edit broke fails is refused once: the model is told and tries again; a second finish ends "finished, tests failing" with exit 4', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: BREAK })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Done.' })] }, expect: { lastMessageContains: 'tests FAILED' } },
      { reply: { toolCalls: [call('finish', { summary: 'Done, but the tests still fail.' })] }, expect: { lastMessageContains: 'so the run was not ended' } },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const json = await runCli(['--goal', 'fix add', '--workspace', root, '--approve', 'auto-edit', ...model(server), '--json']);
        assert.deepEqual(server.mismatches, []);
        assert.equal(json.code, 4, 'a goal that ends with failing tests is no success');
        const ev = events(json.stdout);
        assert.ok(ev.some((e) => e.type === 'model/notice' && e.kind === 'finish-refused'));
        const finished = ev.at(-1)!;
        assert.deepEqual(
          [finished.type, finished.status, finished.tests, finished.summary],
          ['result', 'finished', 'failed', 'Done, but the tests still fail.'],
        );
      },
      FIXED_PROJECT,
    );
    await withRepo(
      turns,
      async (root, server) => {
        const human = await runCli(['--goal', 'fix add', '--workspace', root, '--approve', 'auto-edit', ...model(server)]);
        assert.equal(human.code, 4);
        assert.match(human.stderr, /notice: The model called finish while tests its edits broke still fail; it was told which and asked to try again\./);
        assert.match(human.stderr, /patchpilot: finished after 3 steps: the model called finish\npatchpilot: tests FAILED after the last edit: adds/);
      },
      FIXED_PROJECT,
    );
  });

  test('after the refused finish the model fixes the code: the tests pass and the run ends green with exit 0', async () => {
    const REPAIR = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a + b + 1;\n+exports.add = (a, b) => a + b;\n';
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: BREAK })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Done.' })] }, expect: { lastMessageContains: 'tests FAILED' } },
      { reply: { toolCalls: [call('propose_patch', { patch: REPAIR })] }, expect: { lastMessageContains: 'so the run was not ended' } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] }, expect: { lastMessageContains: 'tests passed' } },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runCli(['--goal', 'fix add', '--workspace', root, '--approve', 'auto-edit', ...model(server), '--json']);
        assert.deepEqual(server.mismatches, []);
        assert.equal(r.code, 0, r.stderr);
        const finished = events(r.stdout).at(-1)!;
        assert.deepEqual([finished.status, finished.tests], ['finished', 'passed']);
      },
      FIXED_PROJECT,
    );
  });
});
