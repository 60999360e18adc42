// End to end: the built `patchpilot run --json` stream carries the events of the public API
// (docs/api.md) with the history's ids: run/started and run/finished with the run's id,
// patch/proposed and patch/applied (or patch/refused) with the id of the patch's row, test/finished;
// compared with `patchpilot history show RUN --json` of the same workspace.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { call, events, runCli, runGoal, skipWithoutBuild, withRepo } from './support';

const NODE_TEST_PROJECT = { ...BUGGY, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) };
/** A patch whose context is not in the file: the engine refuses it. */
const NO_MATCH = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a * b;\n+exports.add = (a, b) => a + b;\n';

describe('patchpilot run --json: the API events with the history ids', { skip: skipWithoutBuild }, () => {
  test('run/started, patch/proposed, patch/refused, patch/applied, test/finished and run/finished name the rows of the history', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: NO_MATCH })] } },
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] }, expect: { lastMessageContains: 'tests passed' } },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runGoal('fix add', root, server);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        const ev = events(r.stdout);
        const of = (type: string) => ev.filter((e) => e.type === type);
        const runId = of('run/started')[0]!.runId as string;
        assert.match(runId, /^[0-9a-f-]{36}$/);
        assert.equal(of('run/finished')[0]!.runId, runId);
        assert.equal(of('run/finished')[0]!.tests, 'passed');

        const show = await runCli(['show', runId, '--cwd', root, '--json'], { command: 'history' });
        assert.equal(show.code, 0, show.stderr);
        const detail = JSON.parse(show.stdout) as {
          run: { id: string };
          patches: { id: string; appliedAt: number | null; acceptedHunks: string[] }[];
          testRuns: { command: string; exitCode: number | null }[];
        };
        assert.equal(detail.run.id, runId);
        assert.equal(detail.patches.length, 2);
        const [refusedRow, appliedRow] = detail.patches;

        const proposed = of('patch/proposed');
        assert.deepEqual(
          proposed.map((e) => [e.patchId, e.ok]),
          [
            [refusedRow!.id, false],
            [appliedRow!.id, true],
          ],
        );
        const refused = of('patch/refused');
        assert.equal(refused.length, 1, r.stdout);
        assert.equal(refused[0]!.patchId, refusedRow!.id);
        assert.equal(refusedRow!.appliedAt, null);
        assert.deepEqual(
          (refused[0]!.hunks as { id: string; state: string }[]).map((h) => h.state),
          ['refused'],
        );
        const applied = of('patch/applied');
        assert.equal(applied.length, 1, r.stdout);
        assert.equal(applied[0]!.patchId, appliedRow!.id);
        assert.deepEqual(applied[0]!.files, ['add.js']);
        assert.ok(appliedRow!.appliedAt);

        const tests = of('test/finished');
        assert.ok(tests.length >= 1, r.stdout);
        assert.deepEqual(
          tests.map((e) => [e.command, e.exitCode]),
          detail.testRuns.map((t) => [t.command, t.exitCode]),
        );
        // In order: the run starts, each patch is proposed before it is applied or refused, the run ends last.
        const types = ev.map((e) => e.type);
        // The first test/finished is the baseline, started with the run: it ends before the first change, whenever the patches come.
        const baselineEnd = types.indexOf('test/finished');
        assert.ok(baselineEnd < types.indexOf('patch/applied'), r.stdout);
        const order = types.filter(
          (t, i) => /^(run|patch|test)\/(started|proposed|applied|refused|finished)$/.test(t) && t !== 'test/started' && i !== baselineEnd,
        );
        assert.deepEqual(order, ['run/started', 'patch/proposed', 'patch/refused', 'patch/proposed', 'patch/applied', 'test/finished', 'run/finished']);
      },
      NODE_TEST_PROJECT,
    );
  });
});
