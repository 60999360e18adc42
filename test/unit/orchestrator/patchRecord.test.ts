// What the history keeps of a propose_patch call: hunk states with reasons and the files before and after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../src/core/patch';
import { patchRecordOf } from '../../../src/core/orchestrator/patchRecord';
import { hunkNoteOf } from '../../../src/core/history/hunkNotes';

const FILE = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].join('\n') + '\n';
const PATCH = ['--- a/x.txt', '+++ b/x.txt', '@@ -1,3 +1,3 @@', '-a', '+A', ' b', ' c', '@@ -10,3 +10,3 @@', ' j', '-k', '+K', ' l', ''].join('\n');
const files = () => new Map([['x.txt', FILE]]);

test('accepted and rejected hunks: ids, the user reason, the reverse patch, the files before and after what was written', () => {
  const preview = applyPatchToTexts(PATCH, files(), { dryRun: true });
  const result = applyPatchToTexts(PATCH, files(), { acceptedHunks: new Set(['x.txt#1']) });
  const rec = patchRecordOf(
    PATCH,
    { preview, result, applied: ['x.txt#1'], rejected: ['x.txt#2'], files: ['x.txt'], hunkReasons: { 'x.txt#2': 'k stays lower case' } },
    42,
  )!;
  assert.deepEqual(rec.acceptedHunks, ['x.txt#1']);
  assert.deepEqual(rec.rejectedHunks, [{ id: 'x.txt#2', state: 'rejected', reason: 'k stays lower case' }]);
  assert.equal(rec.appliedAt, 42);
  assert.ok(rec.reversePatch);
  assert.deepEqual(rec.snapshots, [{ path: 'x.txt', before: FILE, after: FILE.replace('a\n', 'A\n') }]);
});

test('everything rejected: nothing applied, the proposal kept as the after side', () => {
  const preview = applyPatchToTexts(PATCH, files(), { dryRun: true });
  const rec = patchRecordOf(PATCH, { preview, applied: [], hunkReasons: { 'x.txt#1': 'no' } }, 1)!;
  assert.equal(rec.appliedAt, null);
  assert.deepEqual(rec.rejectedHunks, [
    { id: 'x.txt#1', state: 'rejected', reason: 'no' },
    { id: 'x.txt#2', state: 'rejected' },
  ]);
  assert.equal(rec.snapshots![0]!.after, FILE.replace('a\n', 'A\n').replace('k\n', 'K\n'));
});

test('refused by the engine: every hunk refused with the engine reason; plan mode and policy denials say so', () => {
  const stale = files();
  stale.set('x.txt', FILE.replace('k\n', 'something else\n'));
  const refused = applyPatchToTexts(PATCH, stale, { dryRun: true });
  assert.equal(refused.ok, false);
  const rec = patchRecordOf(PATCH, { preview: refused }, 1)!;
  assert.equal(rec.appliedAt, null);
  const notes = rec.rejectedHunks.map((n) => hunkNoteOf(n)!);
  assert.ok(notes.every((n) => n.state === 'refused' && n.reason));
  assert.ok(
    notes.some((n) => n.id === 'x.txt#2' && !/another part/.test(n.reason!)),
    'the hunk that did not match names its own reason',
  );

  const preview = applyPatchToTexts(PATCH, files(), { dryRun: true });
  const planned = patchRecordOf(PATCH, { preview, planned: true }, 1)!;
  assert.match(String(hunkNoteOf(planned.rejectedHunks[0]!)!.reason), /plan mode/);
  const denied = patchRecordOf(PATCH, { preview, denied: [{ path: 'x.txt', reason: 'protected path' }] }, 1)!;
  assert.match(String(hunkNoteOf(denied.rejectedHunks[0]!)!.reason), /protected path/);
  assert.equal(patchRecordOf(PATCH, undefined, 1), undefined, 'no preview: nothing to record');
});

test('older rows kept bare ids: they read as rejected by the user; junk is skipped', () => {
  assert.deepEqual(hunkNoteOf('a.ts#1'), { id: 'a.ts#1', state: 'rejected' });
  assert.equal(hunkNoteOf(5), undefined);
  assert.equal(hunkNoteOf({ state: 'refused' }), undefined);
});
