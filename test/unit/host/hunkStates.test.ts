import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hunkStates, reviewSummary } from '../../../src/host/vscode/diff/hunkStates';
import type { ReviewFile } from '../../../src/host/vscode/diff/diffReviewLogic';

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
