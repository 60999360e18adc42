import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hunkStates, reviewDecisions, reviewNotice, reviewSummary } from '../../../src/host/vscode/diff/hunkStates';
import type { ReviewFile } from '../../../src/host/vscode/diff/diffReviewLogic';
import type { PatchStateView } from '../../../src/protocol/patchState';

test("a review's hunks in words: label, the user's decision, its reason; and the one-line summary", () => {
  const files: ReviewFile[] = [
    {
      path: 'a.js',
      leftText: 'x',
      hunks: [
        { id: 'a.js#1', oldStart: 1, oldEnd: 3 },
        { id: 'a.js#2', oldStart: 9, oldEnd: 9 },
      ],
    },
    { path: 'b.js', leftText: null, hunks: [{ id: 'b.js#1', oldStart: 1, oldEnd: 0 }] },
  ];
  const states = hunkStates(
    files,
    new Map([
      ['a.js#2', { accepted: false, reason: 'keep it' }],
      ['b.js#1', { accepted: true }],
    ]),
  );
  assert.deepEqual(states, [
    { id: 'a.js#1', label: 'Hunk 1 of 3 in a.js, lines 1-3', state: 'undecided' },
    { id: 'a.js#2', label: 'Hunk 2 of 3 in a.js, line 9', state: 'rejected', reason: 'keep it' },
    { id: 'b.js#1', label: 'Hunk 3 of 3 in b.js, after line 0', state: 'accepted' },
  ]);
  assert.equal(reviewSummary(states), '3 hunks: 1 accepted, 1 rejected, 1 undecided');
  assert.equal(reviewSummary(states.slice(0, 1)), '1 hunk: 1 undecided');
});

test("a review's decisions in the patch states' words, and what an open review says when a patch to its files changes elsewhere", () => {
  const files: ReviewFile[] = [
    {
      path: 'a.js',
      leftText: 'x',
      hunks: [
        { id: 'a.js#1', oldStart: 1, oldEnd: 3 },
        { id: 'a.js#2', oldStart: 9, oldEnd: 9 },
      ],
    },
    { path: 'b.js', leftText: 'y', hunks: [{ id: 'b.js#1', oldStart: 2, oldEnd: 2 }] },
  ];
  assert.deepEqual(
    reviewDecisions(
      files,
      new Map([
        ['a.js#2', { accepted: false }],
        ['b.js#1', { accepted: true }],
      ]),
    ),
    [
      { id: 'a.js#1', state: 'proposed' },
      { id: 'a.js#2', state: 'rejected' },
      { id: 'b.js#1', state: 'accepted' },
    ],
  );
  const patch = (state: PatchStateView['state'], words: string, changed = ['a.js', 'c.js']): PatchStateView => ({
    key: 'r1/p0',
    files: changed,
    state,
    hunks: [],
    at: 1,
    words,
    canUndo: false,
    canRevert: false,
  });
  assert.equal(
    reviewNotice(files, patch('undone', 'undone by you: the files are back as they were before it')),
    'The patch to a.js was undone by you since this review opened: its left side shows the file as it was then. Reject and ask again to review against the file as it is now.',
  );
  assert.match(
    reviewNotice(files, patch('restored-away', 'taken back by a restore to an earlier step')) ?? '',
    /^The patch to a\.js was taken back by a restore/,
  );
  assert.equal(reviewNotice(files, patch('applied', 'applied')), undefined, 'a patch written is the review ending, not news');
  assert.equal(reviewNotice(files, patch('undone', 'undone by you', ['c.js'])), undefined, 'a patch to other files says nothing');
});
