// The GitHub Action's entry (scripts/action/entry.mjs) run as GitHub runs it: INPUT_* variables,
// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_WORKSPACE set, against the scripted model server and a
// real git repository. The outputs, the job summary and the patch file are checked, and the fix is on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, skipWithoutBuild, withRepo } from '../agent/support';
import { FIX } from '../../unit/orchestrator/harness';
import { outputsOf, runAction } from './support';

test('the action runs a goal: outputs, job summary, the patch file, the fix on disk', { skip: skipWithoutBuild, timeout: 120_000 }, async () => {
  await withRepo(
    [
      { reply: { text: 'Fixing add.', toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { text: 'add() adds now.', toolCalls: [call('finish', { summary: 'add() adds now.' })] } },
    ],
    async (root, server) => {
      const gh = mkdtempSync(path.join(os.tmpdir(), 'pp-action-'));
      try {
        const output = path.join(gh, 'output');
        const summary = path.join(gh, 'summary.md');
        writeFileSync(output, '');
        const r = await runAction({
          GITHUB_WORKSPACE: root,
          GITHUB_OUTPUT: output,
          GITHUB_STEP_SUMMARY: summary,
          RUNNER_TEMP: gh,
          INPUT_GOAL: 'make add add',
          INPUT_MODEL: 'scripted-model',
          INPUT_BASE_URL: server.baseUrl,
          INPUT_API_KEY: 'secret-from-the-workflow',
          INPUT_APPROVE: 'auto-edit',
          INPUT_TEST_COMMAND: `${JSON.stringify(process.execPath)} --test add.test.js`,
          INPUT_PATCH_FILE: 'out/fix.patch',
        });
        const out = outputsOf(output);
        assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
        assert.equal(out.status, 'finished');
        assert.equal(out['exit-code'], '0');
        assert.equal(out.tests, 'passed');
        assert.ok(Number(out.tokens) > 0, `tokens: ${out.tokens}`);
        assert.equal(out['patch-file'], path.join(root, 'out/fix.patch'));
        const patch = readFileSync(out['patch-file']!, 'utf8');
        assert.match(patch, /^\+exports\.add = \(a, b\) => a \+ b;$/m);
        assert.doesNotMatch(patch, /fix\.patch/, 'the patch file is not part of its own diff');
        assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
        const md = readFileSync(summary, 'utf8');
        assert.match(md, /## PatchPilot: finished \(exit 0\)/);
        assert.match(md, /add\.js \| 2 \+-/);
        assert.match(md, /\| scripted-model \| 2 \|/);
        // The key reached the model client (as its bearer token) and nothing else.
        assert.ok(server.requests.every((q) => q.headers?.authorization === 'Bearer secret-from-the-workflow'));
        assert.ok(out['events-file'] && readFileSync(out['events-file'], 'utf8').includes('"run/finished"'));
      } finally {
        rmSync(gh, { recursive: true, force: true });
      }
    },
  );
});

test('the action without a goal stops with an error annotation and exit 2', { skip: skipWithoutBuild }, async () => {
  const r = await runAction({ INPUT_MODEL: 'm', GITHUB_WORKSPACE: os.tmpdir() });
  assert.equal(r.code, 2);
  assert.match(r.stdout, /::error title=PatchPilot::set the goal input/);
});
