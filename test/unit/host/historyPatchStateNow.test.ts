// The history panel's patch says where the patch stands now, from the window's one record of its
// state (the chat's card and the status bar read the same): a restore that took it back, an Undo,
// an Apply Again, hunks decided in the open review of an Apply Again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TimelineItem } from '../../../src/protocol/history';
import type { PatchStateView } from '../../../src/protocol/patchState';
import { canRevertNow, hunksNow, patchStateLine } from '../../../webview-ui/history/patchStateNow';

type PatchItem = Extract<TimelineItem, { kind: 'patch' }>;

const recorded: PatchItem = {
  kind: 'patch',
  id: 'p1',
  time: 1,
  files: ['a.js'],
  appliedAt: 2,
  hunks: [
    { id: 'a.js#1', path: 'a.js', state: 'applied' },
    { id: 'a.js#2', path: 'a.js', state: 'applied' },
  ],
  hasSnapshots: true,
  canRevert: true,
  canApplyAgain: true,
};

function now(state: PatchStateView['state'], words: string, hunks: PatchStateView['hunks'] = []): PatchStateView {
  return { key: 'r1/p1', runId: 'r1', patchId: 'p1', files: ['a.js'], state, hunks, at: Date.UTC(2026, 0, 1, 10), words, canUndo: false, canRevert: false };
}

test('a patch the store does not know reads as the run recorded it', () => {
  assert.equal(patchStateLine(recorded), '2 of 2 hunks applied');
  assert.equal(patchStateLine({ ...recorded, undoneAt: 5 }).startsWith('2 of 2 hunks applied, then undone by you at '), true);
  assert.equal(patchStateLine({ ...recorded, appliedAt: null }), 'not applied');
  assert.equal(canRevertNow(recorded), true);
});

test('a restore that took the patch back is said, and Revert is no longer offered', () => {
  const item = { ...recorded, now: now('restored-away', 'taken back by a restore to an earlier step') };
  assert.match(patchStateLine(item), /^2 of 2 hunks applied, then taken back by a restore to an earlier step at /);
  assert.equal(canRevertNow(item), false);
  assert.equal(item.canApplyAgain, true, 'Apply Again writes it again');
});

test('the store is newer than the record: an Undo in the chat, then Apply Again, read from the store', () => {
  assert.match(patchStateLine({ ...recorded, now: now('undone', 'undone by you') }), /then undone by you at /);
  assert.equal(canRevertNow({ ...recorded, now: now('undone', 'undone by you') }), false);
  // Recorded as undone, since applied again in this window: the store's state wins.
  assert.match(patchStateLine({ ...recorded, undoneAt: 3, now: now('reapplied', 'applied again by you') }), /later applied again by you at /);
  assert.equal(patchStateLine({ ...recorded, undoneAt: 3, now: now('applied', 'applied') }), '2 of 2 hunks applied');
});

test("hunks decided in an Apply Again's open review show in the history before the write", () => {
  const item = {
    ...recorded,
    now: now('applied', 'applied', [
      { id: 'a.js#1', state: 'accepted' },
      { id: 'a.js#2', state: 'rejected' },
    ]),
  };
  assert.deepEqual(
    hunksNow(item).map((h) => [h.id, h.state, h.reason]),
    [
      ['a.js#1', 'accepted', undefined],
      ['a.js#2', 'rejected', 'rejected in the review of Apply Again'],
    ],
  );
  // The line still says what the run wrote: the review has written nothing yet.
  assert.equal(patchStateLine(item), '2 of 2 hunks applied');
  const written = {
    ...item,
    now: now('reapplied', 'applied again by you', [
      { id: 'a.js#1', state: 'applied' },
      { id: 'a.js#2', state: 'rejected' },
    ]),
  };
  assert.match(patchStateLine(written), /^1 of 2 hunks applied, later applied again by you at /);
});
