// The window's patch states (patches/patchStateTable.ts, the logic of the PatchStates store): one
// record per patch, changed by the run's events, the user's Undo Patch, the history's Apply Again and
// Revert, and restores to a checkpoint, whichever view the change came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PatchStateTable, type PatchChange } from '../../../src/host/vscode/patches/patchStateTable';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

const hunk = (id: string, status: 'would-apply' | 'refused' = 'would-apply') => ({ id, path: id.replace(/#\d+$/, ''), status });
let clock = 1_000;
const ev = (event: AgentEvent): PatchChange => ({ kind: 'event', event, at: ++clock });

function runWithPatch(table: PatchStateTable, opts: { written: string[]; total: number; step?: number }) {
  table.apply(ev({ type: 'run/started', runId: 'r1', model: 'm', goal: 'g' } as AgentEvent));
  table.apply(ev({ type: 'step/started', step: opts.step ?? 2 }));
  table.apply(ev({ type: 'patch/proposed', patchId: 'p1', ok: true, hunks: [hunk('a.js#1'), hunk('a.js#2')] }));
  return table.apply(
    ev({
      type: 'patch/applied',
      patchId: 'p1',
      files: ['a.js'],
      hunks: opts.written.map((id) => ({ ...hunk(id), status: 'applied' as const })),
      total: opts.total,
      undoKey: 'k1',
    }),
  );
}

test('a run writes a patch: proposed, then applied with each hunk said; a partial write is "partly applied"', () => {
  const table = new PatchStateTable();
  const [applied] = runWithPatch(table, { written: ['a.js#1', 'a.js#2'], total: 2 });
  assert.equal(applied?.state, 'applied');
  assert.equal(applied?.key, 'r1/p1');
  assert.equal(applied?.canUndo, true);
  assert.deepEqual(applied?.hunks, [
    { id: 'a.js#1', state: 'applied' },
    { id: 'a.js#2', state: 'applied' },
  ]);
  const partial = new PatchStateTable();
  const [p] = runWithPatch(partial, { written: ['a.js#1'], total: 2 });
  assert.equal(p?.state, 'partially-applied');
  assert.deepEqual(
    p?.hunks.map((h) => h.state),
    ['applied', 'rejected'],
  );
  assert.equal(p?.words, 'partly applied');
});

test("Undo Patch in the chat, then the history's Apply Again, then its Revert: one record, the last change wins, Undo is offered only while written", () => {
  const table = new PatchStateTable();
  runWithPatch(table, { written: ['a.js#1', 'a.js#2'], total: 2 });
  const [undone] = table.apply(ev({ type: 'patch/undone', undoKey: 'k1', files: ['a.js'], runId: 'r1', patchId: 'p1' }));
  assert.equal(undone?.state, 'undone');
  assert.equal(undone?.canUndo, false);
  const [again] = table.apply({ kind: 'reapplied', runId: 'r1', patchId: 'p1', undoKey: 'k1', files: ['a.js'], at: ++clock });
  assert.equal(again?.state, 'reapplied');
  assert.equal(again?.words, 'applied again by you');
  assert.equal(again?.canUndo, true);
  // The chat's Undo of the write Apply Again made (the same undo key) finds the same patch.
  assert.equal(table.get({ undoKey: 'k1' })?.state, 'reapplied');
  const [reverted] = table.apply({ kind: 'reverted', runId: 'r1', patchId: 'p1', files: ['a.js'], at: ++clock });
  assert.equal(reverted?.state, 'undone');
  assert.equal(table.all().length, 1, 'one record, however many views changed it');
});

test('a restore to before the step that wrote the patch takes it away; its redo brings it back; an earlier patch stays', () => {
  const table = new PatchStateTable();
  runWithPatch(table, { written: ['a.js#1', 'a.js#2'], total: 2, step: 3 });
  const restore = (beforeStep: number, redo: boolean) =>
    table.apply({ kind: 'restored', done: { request: { runId: 'r1', beforeStep, redo }, restored: ['a.js'], skipped: [], at: ++clock } });
  assert.deepEqual(restore(4, false), [], 'a restore to after the patch leaves it');
  const [away] = restore(2, false);
  assert.equal(away?.state, 'restored-away');
  assert.equal(away?.canUndo, false);
  const [back] = restore(2, true);
  assert.equal(back?.state, 'applied');
});

test('refused patches and events about no known patch', () => {
  const table = new PatchStateTable();
  table.apply(ev({ type: 'run/started', runId: 'r2', model: 'm', goal: 'g' } as AgentEvent));
  const [refused] = table.apply(
    ev({ type: 'patch/refused', patchId: 'p9', files: ['b.js'], hunks: [{ id: 'b.js#1', state: 'refused', reason: 'context differs' }] }),
  );
  assert.equal(refused?.state, 'refused');
  assert.equal(refused?.words, 'not applied');
  assert.deepEqual(table.apply(ev({ type: 'text/delta', text: 'hi' } as AgentEvent)), []);
  // An undo of a write from before a reload (known only by its key): known from now on, as undone.
  const [late] = table.apply(ev({ type: 'patch/undone', undoKey: 'old', files: ['c.js'] }));
  assert.equal(late?.key, 'old');
  assert.equal(late?.state, 'undone');
});

test("hunks decided in the diff editor's review are the proposal's hunk states; a written patch keeps them as written", () => {
  const table = new PatchStateTable();
  table.apply(ev({ type: 'run/started', runId: 'r1', model: 'm', goal: 'g' } as AgentEvent));
  table.apply(ev({ type: 'patch/proposed', patchId: 'p1', ok: true, hunks: [hunk('a.js#1'), hunk('a.js#2'), hunk('a.js#3', 'refused')] }));
  const [decided] = table.reviewDecided(
    [
      { id: 'a.js#1', state: 'accepted' },
      { id: 'a.js#2', state: 'rejected' },
    ],
    ++clock,
  );
  assert.equal(decided?.state, 'proposed');
  assert.deepEqual(
    decided?.hunks.map((h) => h.state),
    ['accepted', 'rejected', 'refused'],
  );
  assert.deepEqual(table.reviewDecided([{ id: 'a.js#1', state: 'accepted' }], ++clock), [], 'nothing changed, nothing to tell');
  assert.deepEqual(table.reviewDecided([{ id: 'z.js#1', state: 'accepted' }], ++clock), [], 'hunks of no proposal');
  const [applied] = table.apply(
    ev({ type: 'patch/applied', patchId: 'p1', files: ['a.js'], hunks: [{ ...hunk('a.js#1'), status: 'applied' }], total: 3, undoKey: 'k1' }),
  );
  assert.deepEqual(
    applied?.hunks.map((h) => h.state),
    ['applied', 'rejected', 'refused'],
  );
  assert.deepEqual(table.reviewDecided([{ id: 'a.js#1', state: 'rejected' }], ++clock), [], 'a written patch is no longer under review');
});

test("an Apply Again's review decides the recorded patch's hunks (by its ids), not a newer proposal's with the same ids", () => {
  const table = new PatchStateTable();
  runWithPatch(table, { written: ['a.js#1', 'a.js#2'], total: 2 });
  table.apply(ev({ type: 'patch/undone', undoKey: 'k1', files: ['a.js'], runId: 'r1', patchId: 'p1' }));
  // A later proposal with the same hunk ids, still under review: the hunk match alone would pick it.
  table.apply(ev({ type: 'patch/proposed', patchId: 'p2', ok: true, hunks: [hunk('a.js#1'), hunk('a.js#2')] }));
  const patch = { runId: 'r1', patchId: 'p1', hunkIds: { 'a.js#1': 'a.js#1', 'a.js#2': 'a.js#2' } };
  const [decided] = table.reviewDecided(
    [
      { id: 'a.js#1', state: 'accepted' },
      { id: 'a.js#2', state: 'rejected' },
    ],
    ++clock,
    patch,
  );
  assert.equal(decided?.key, 'r1/p1');
  assert.deepEqual(
    decided?.hunks.map((h) => h.state),
    ['accepted', 'rejected'],
  );
  assert.deepEqual(
    table.get({ runId: 'r1', patchId: 'p2' })?.hunks.map((h) => h.state),
    ['proposed', 'proposed'],
    'the newer proposal is untouched',
  );
  // Written: the accepted hunk is applied again, the rejected one stays rejected.
  const [again] = table.apply({ kind: 'reapplied', runId: 'r1', patchId: 'p1', undoKey: 'k1', files: ['a.js'], at: ++clock });
  assert.deepEqual(
    again?.hunks.map((h) => h.state),
    ['applied', 'rejected'],
  );
});

test("an Apply Again's review of renumbered hunks maps to the recorded ones; a review that wrote nothing puts them back", () => {
  const table = new PatchStateTable();
  runWithPatch(table, { written: ['a.js#2'], total: 2 });
  table.apply(ev({ type: 'patch/undone', undoKey: 'k1', files: ['a.js'], runId: 'r1', patchId: 'p1' }));
  // The applied part is a new diff: its one hunk is a.js#1, the record's a.js#2.
  const patch = { runId: 'r1', patchId: 'p1', hunkIds: { 'a.js#1': 'a.js#2' } };
  const [decided] = table.reviewDecided([{ id: 'a.js#1', state: 'rejected' }], ++clock, patch);
  assert.deepEqual(
    decided?.hunks.map((h) => `${h.id} ${h.state}`),
    ['a.js#1 rejected', 'a.js#2 rejected'],
  );
  const [closed] = table.apply({ kind: 'review-closed', runId: 'r1', patchId: 'p1', at: ++clock });
  assert.equal(closed?.state, 'undone');
  assert.deepEqual(
    closed?.hunks.map((h) => `${h.id} ${h.state}`),
    ['a.js#1 rejected', 'a.js#2 applied'],
  );
  assert.deepEqual(table.apply({ kind: 'review-closed', runId: 'r1', patchId: 'p1', at: ++clock }), [], 'no review open: nothing to put back');
});
