// Apply Again's review shows the applied part of a recorded patch as a new diff (history/reappliedHunks.ts):
// each hunk it shows is mapped to the recorded hunk it is, per file, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApplyResult } from '../../../src/core/patch';
import { recordedHunkIds } from '../../../src/host/vscode/history/reappliedHunks';

type Files = Pick<ApplyResult, 'files'>;
const file = (path: string, ids: string[]): Files['files'][number] => ({
  operation: 'modify',
  oldPath: path,
  newPath: path,
  status: 'ok',
  hunks: ids.map((id, index) => ({ id, path, index, status: 'would-apply' as const })),
});

test('the review of the applied part: its renumbered hunks are the recorded applied ones, per file, in order', () => {
  const preview: Files = { files: [file('a.js', ['a.js#1', 'a.js#2']), file('b.js', ['b.js#1'])] };
  assert.deepEqual(recordedHunkIds(preview, ['a.js#3', 'b.js#2', 'a.js#10']), { 'a.js#1': 'a.js#3', 'a.js#2': 'a.js#10', 'b.js#1': 'b.js#2' });
});

test('the review of the recorded text itself (the same ids): each id is itself; hunks not shown are left out', () => {
  const preview: Files = {
    files: [
      {
        ...file('a.js', ['a.js#1', 'a.js#3']),
        hunks: [...file('a.js', ['a.js#1', 'a.js#3']).hunks, { id: 'a.js#2', path: 'a.js', index: 1, status: 'rejected' }],
      },
    ],
  };
  assert.deepEqual(recordedHunkIds(preview, ['a.js#1', 'a.js#3']), { 'a.js#1': 'a.js#1', 'a.js#3': 'a.js#3' });
});
