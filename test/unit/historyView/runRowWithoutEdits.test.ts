// The history's run list says what the chat's end line says of a run that ran tests and edited
// nothing ("tests failed (no edits made)"), not "tests not run": derived from the run's recorded
// test runs and edits (core/history/queries.ts), through the list row (runRowOf) to its words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchPilotSettings } from '../../../src/core/config/settings';
import { runRowOf } from '../../../src/core/historyView';
import { runEndView } from '../../../src/protocol/runEnd';
import type { RunRowView } from '../../../src/protocol/history';
import { BUGGY, FIX, TEST_CMD, call, runScripted } from '../orchestrator/harness';

const withTests = (s: PatchPilotSettings) => {
  s.tests.commands = [TEST_CMD];
  s.tests.afterEdit = false;
};
const finish = call('finish', { summary: 'done; adds failed before the run too' });

/** The list row of the one run the scripted turns make. */
async function rowOf(turns: Record<string, unknown>[][], files: Record<string, string> = BUGGY): Promise<RunRowView> {
  let row: RunRowView | undefined;
  await runScripted(
    turns.map((calls) => ({ reply: { toolCalls: calls as never } })),
    {
      settings: withTests,
      files,
      inspect: async (h) => {
        const [run] = await h.history.listRuns({ limit: 1 });
        row = run && runRowOf(run);
      },
    },
  );
  assert.ok(row, 'the run is in the list');
  return row;
}

const words = (r: RunRowView) => runEndView(r.status as never, r.tests, r.withoutEdits).label;

test('a run that ran failing tests and edited nothing: the list says "tests failed (no edits made)", as the chat does', async () => {
  const row = await rowOf([[call('run_tests', {})], [finish]]);
  assert.deepEqual(row.withoutEdits, { testsPassed: false });
  assert.equal(words(row), 'finished · tests failed (no edits made)');
});

test('a run that ran passing tests and edited nothing: "tests passed (no edits made)"', async () => {
  const row = await rowOf([[call('run_tests', {})], [call('finish', { summary: 'done' })]], { ...BUGGY, 'add.js': 'exports.add = (a, b) => a + b;\n' });
  assert.deepEqual(row.withoutEdits, { testsPassed: true });
  assert.equal(words(row), 'finished · tests passed (no edits made)');
});

test('a run that edited after its tests, or ran none, keeps its words ("tests not run")', async () => {
  const edited = await rowOf([
    [call('propose_patch', { patch: FIX })],
    [call('run_tests', {})],
    [call('write_file', { path: 'note.txt', content: 'x\n' })],
    [finish],
  ]);
  assert.equal(edited.withoutEdits, undefined);
  assert.equal(words(edited), 'finished · tests not run');
  const idle = await rowOf([[call('list_dir', { path: '.' })], [finish]]);
  assert.equal(idle.withoutEdits, undefined);
  assert.equal(words(idle), 'finished · tests not run');
});
