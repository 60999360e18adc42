// The window's patch states after a reload (patches/patchSeed.ts): seeded from what the history
// recorded (a real store on disk), each patch where the user left it; what the window saw itself wins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openHistoryStore, REAPPLY_STEP, UNDO_STEP, type HistoryStore } from '../../../src/core/history';
import { undoKeyOf } from '../../../src/core/patch';
import { runsWithUnknownPatches, seedOfRun } from '../../../src/host/vscode/patches/patchSeed';
import { RESTORE_STEP } from '../../../src/core/historyView';
import { PatchStateTable } from '../../../src/host/vscode/patches/patchStateTable';
import type { ChatEntry } from '../../../src/protocol/chat';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { withHistoryWorkspace } from '../../support/historyWorkspace';

const REVERSE = { a: '--- a/a.js\n+++ b/a.js\n@@ -1 +1 @@\n-new a\n+old a\n', b: '--- a/b.js\n+++ b/b.js\n@@ -1 +1 @@\n-new b\n+old b\n' };

/** A run with three patches: a.js written then undone; b.js partly written, undone, then applied again; c.js refused. */
async function recordRun(store: HistoryStore): Promise<{ runId: string; ids: string[] }> {
  const runId = await store.startRun({ goal: 'fix the dates', startedAt: 1_000 });
  const a = await store.addPatch(runId, {
    text: 'a',
    files: ['a.js'],
    acceptedHunks: ['a.js#1'],
    rejectedHunks: [],
    reversePatch: REVERSE.a,
    appliedAt: 2_000,
    time: 2_000,
  });
  const b = await store.addPatch(runId, {
    text: 'b',
    files: ['b.js'],
    acceptedHunks: ['b.js#1'],
    rejectedHunks: [{ id: 'b.js#2', state: 'rejected', reason: 'keep it' }],
    reversePatch: REVERSE.b,
    appliedAt: 3_000,
    time: 3_000,
  });
  const c = await store.addPatch(runId, {
    text: 'c',
    files: ['c.js'],
    acceptedHunks: [],
    rejectedHunks: [{ id: 'c.js#1', state: 'refused', reason: 'no match' }],
    time: 4_000,
  });
  const step = (tool: string, reverse: string, files: string[], time: number) =>
    store.addStep(runId, { role: 'system', tool, text: tool, arguments: { undoKey: undoKeyOf(reverse), files }, time });
  await step(UNDO_STEP, REVERSE.a, ['a.js'], 5_000);
  await step(UNDO_STEP, REVERSE.b, ['b.js'], 6_000);
  await step(REAPPLY_STEP, REVERSE.b, ['b.js'], 7_000);
  await store.finishRun(runId, { status: 'finished', endedAt: 8_000 });
  return { runId, ids: [a, b, c] };
}

test('a recorded run seeds each patch where the user left it: undone, applied again, refused; each hunk as recorded', async () => {
  await withHistoryWorkspace(async (ws) => {
    const store = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
    try {
      const { runId, ids } = await recordRun(store);
      const seeds = seedOfRun((await store.getRun(runId))!);
      const byFile = new Map(seeds.map((s) => [s.files[0], s]));
      assert.equal(byFile.get('a.js')?.state, 'undone');
      assert.equal(byFile.get('a.js')?.at, 5_000);
      assert.equal(byFile.get('a.js')?.undoKey, undoKeyOf(REVERSE.a));
      assert.equal(byFile.get('b.js')?.state, 'reapplied');
      assert.deepEqual(byFile.get('b.js')?.hunks, [
        { id: 'b.js#1', state: 'applied' },
        { id: 'b.js#2', state: 'rejected' },
      ]);
      assert.equal(byFile.get('c.js')?.state, 'refused');
      assert.equal(byFile.get('c.js')?.undoKey, undefined);
      assert.deepEqual(
        seeds.map((s) => `${s.runId}/${s.patchId}`),
        ids.map((id) => `${runId}/${id}`),
      );
    } finally {
      await store.close();
    }
  });
});

test('seeding adds only the patches the window does not know: what it saw since the reload is newer and stays', async () => {
  await withHistoryWorkspace(async (ws) => {
    const store = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
    try {
      const { runId, ids } = await recordRun(store);
      const table = new PatchStateTable();
      // Since the reload the user applied a.js again (the history's Apply Again): the store knows it.
      table.apply({ kind: 'reapplied', runId, patchId: ids[0]!, undoKey: undoKeyOf(REVERSE.a), files: ['a.js'], at: 9_000 });
      const added = table.seed(seedOfRun((await store.getRun(runId))!));
      assert.deepEqual(
        added.map((p) => [p.files[0], p.state, p.canUndo, p.canRevert]),
        [
          // Written before the reload: this window's undo journal lacks it, so the chat offers no Undo Patch but the history's Revert (Revert Patch).
          ['b.js', 'reapplied', false, true],
          // Never written: nothing to revert.
          ['c.js', 'refused', false, false],
        ],
      );
      // What this window saw since the reload is its own: Undo Patch, not Revert.
      assert.deepEqual([table.get({ runId, patchId: ids[0]! })?.canUndo, table.get({ runId, patchId: ids[0]! })?.canRevert], [true, false]);
      assert.equal(table.get({ runId, patchId: ids[0]! })?.state, 'reapplied');
      // The chat's Undo Patch finds a seeded patch by its undo key, and then it is undone in every view.
      const [undone] = table.apply({ kind: 'event', event: { type: 'patch/undone', undoKey: undoKeyOf(REVERSE.b), files: ['b.js'] }, at: 10_000 });
      assert.equal(undone?.key, `${runId}/${ids[1]}`);
      assert.equal(undone?.state, 'undone');
      assert.equal(undone?.canRevert, false, 'an undone patch offers no Revert');
      assert.deepEqual(table.seed(seedOfRun((await store.getRun(runId))!)), [], 'seeding again adds nothing');
    } finally {
      await store.close();
    }
  });
});

test("a chat's lines name the runs whose patches the store does not know; a patch it knows asks for nothing", () => {
  const ev = (event: AgentEvent): ChatEntry => ({ kind: 'event', event });
  const entries: ChatEntry[] = [
    ev({ type: 'run/started', runId: 'r1', model: 'm', goal: 'g' } as AgentEvent),
    ev({ type: 'patch/proposed', patchId: 'p1', ok: true, hunks: [] }),
    ev({ type: 'patch/applied', patchId: 'p1', files: ['a.js'], hunks: [], total: 1, undoKey: 'k1' }),
    ev({ type: 'run/started', runId: 'r2', model: 'm', goal: 'g' } as AgentEvent),
    ev({ type: 'patch/refused', patchId: 'p2', files: ['b.js'], hunks: [] }),
    ev({ type: 'run/started', runId: 'r3', model: 'm', goal: 'g' } as AgentEvent),
    { kind: 'user', text: 'no patches in this run' } as ChatEntry,
  ];
  assert.deepEqual(
    runsWithUnknownPatches(entries, () => false),
    ['r1', 'r2'],
  );
  assert.deepEqual(
    runsWithUnknownPatches(entries, (ref) => ref.runId === 'r1'),
    ['r2'],
  );
});

test('a restore recorded with the run takes back the patches written since its step: seeded as such after a reload; its redo brings them back', async () => {
  await withHistoryWorkspace(async (ws) => {
    const store = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
    try {
      const runId = await store.startRun({ goal: 'two edits', startedAt: 1_000 });
      const patch = (file: 'a' | 'b', time: number) =>
        store.addPatch(runId, {
          text: file,
          files: [`${file}.js`],
          acceptedHunks: [`${file}.js#1`],
          rejectedHunks: [],
          reversePatch: REVERSE[file],
          appliedAt: time,
          time,
        });
      await patch('a', 2_000);
      await patch('b', 3_000);
      await store.finishRun(runId, { status: 'finished', endedAt: 4_000 });
      const restore = (time: number, redo: boolean) =>
        store.addStep(runId, {
          role: 'system',
          tool: RESTORE_STEP,
          text: 'restore',
          arguments: { beforeStep: 2, redo, ...(redo ? {} : { since: 2_500 }) },
          time,
        });
      // Restore to before step 2 (its checkpoint began at 2,500): b.js (written at 3,000) is taken back, a.js stays.
      await restore(5_000, false);
      const states = async () => new Map(seedOfRun((await store.getRun(runId))!).map((s) => [s.files[0], [s.state, s.at]]));
      assert.deepEqual(
        await states(),
        new Map([
          ['a.js', ['applied', 2_000]],
          ['b.js', ['restored-away', 5_000]],
        ]),
      );
      // Seeded after a reload, then the restore's redo in this window: b.js is back as it was.
      const table = new PatchStateTable();
      table.seed(seedOfRun((await store.getRun(runId))!));
      const [back] = table.apply({ kind: 'restored', done: { request: { runId, beforeStep: 2, redo: true }, restored: ['b.js'], skipped: [], at: 5_500 } });
      assert.deepEqual([back?.files[0], back?.state], ['b.js', 'applied']);
      // The restore's redo recorded: b.js is written again, as before the restore.
      await restore(6_000, true);
      assert.deepEqual(
        await states(),
        new Map([
          ['a.js', ['applied', 2_000]],
          ['b.js', ['applied', 3_000]],
        ]),
      );
    } finally {
      await store.close();
    }
  });
});

test("a seeded patch's Revert Patch (the history's Revert) leaves it undone in every view, with no way back offered twice", async () => {
  await withHistoryWorkspace(async (ws) => {
    const store = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
    try {
      const { runId, ids } = await recordRun(store);
      const table = new PatchStateTable();
      table.seed(seedOfRun((await store.getRun(runId))!));
      assert.equal(table.get({ runId, patchId: ids[1]! })?.canRevert, true);
      const [reverted] = table.apply({ kind: 'reverted', runId, patchId: ids[1]!, files: ['b.js'], at: 11_000 });
      assert.deepEqual([reverted?.state, reverted?.canUndo, reverted?.canRevert], ['undone', false, false]);
    } finally {
      await store.close();
    }
  });
});

test('a restore after a reload: the seeded patches (no step) take the state the history records now; read again with nothing new, nothing changes', async () => {
  await withHistoryWorkspace(async (ws) => {
    const store = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
    try {
      const { runId, ids } = await recordRun(store);
      const table = new PatchStateTable();
      table.seed(seedOfRun((await store.getRun(runId))!));
      const before = table.get({ runId, patchId: ids[1]! });
      assert.equal(before?.state, 'reapplied');
      // The restore as the window sees it: the seeded rows carry no step, so the restore alone cannot place them.
      const done = { request: { runId, beforeStep: 1, redo: false }, restored: ['a.js', 'b.js'], skipped: [], at: 20_000 };
      assert.deepEqual(table.apply({ kind: 'restored', done }), []);
      // Recorded with the run (since 1,500: every write after it is taken back), then read again.
      await store.addStep(runId, {
        role: 'system',
        tool: RESTORE_STEP,
        text: 'restore',
        arguments: { beforeStep: 1, redo: false, since: 1_500 },
        time: 20_000,
      });
      const changed = table.relearn(seedOfRun((await store.getRun(runId))!));
      assert.deepEqual(
        changed.map((p) => [p.files[0], p.state]),
        [['b.js', 'restored-away']],
      );
      assert.equal(table.get({ runId, patchId: ids[1]! })?.words, 'taken back by a restore to an earlier step');
      // Read again with nothing new: nothing changes.
      assert.deepEqual(table.relearn(seedOfRun((await store.getRun(runId))!)), []);
    } finally {
      await store.close();
    }
  });
});
