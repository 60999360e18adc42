// Where the user left each recorded patch (core/historyView/patchOutcomes.ts): Undo and Apply Again
// by undo key, the later one counting; a restore takes back the patches last written since its
// checkpoint began, until its redo; a write after the restore is newer than the restore.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REAPPLY_STEP, UNDO_STEP, type StepRecord } from '../../../src/core/history';
import { patchOutcomes, RESTORE_STEP } from '../../../src/core/historyView';

let seq = 0;
const step = (tool: string, args: Record<string, unknown>, time: number): StepRecord => ({
  id: `s${++seq}`,
  runId: 'r1',
  seq,
  role: 'system',
  text: tool,
  tool,
  arguments: args as StepRecord['arguments'],
  result: null,
  durationMs: null,
  time,
});
const patches = [
  { undoKey: 'ka', appliedAt: 1_000 },
  { undoKey: 'kb', appliedAt: 2_000 },
  { undoKey: 'kc', appliedAt: 3_000 },
];

test('a restore takes back the patches written since its checkpoint began; one undone before stays undone', () => {
  const outcomes = patchOutcomes([step(UNDO_STEP, { undoKey: 'kc' }, 4_000), step(RESTORE_STEP, { beforeStep: 2, redo: false, since: 1_500 }, 5_000)], patches);
  assert.equal(outcomes.get('ka'), undefined, 'written before the step: kept');
  assert.deepEqual(outcomes.get('kb'), { restoredAt: 5_000 });
  assert.deepEqual(outcomes.get('kc'), { undoneAt: 4_000 });
});

test("the restore's redo brings the patches back as they were; an Apply Again after the restore is newer and stays", () => {
  const restore = step(RESTORE_STEP, { beforeStep: 1, redo: false, since: 500 }, 5_000);
  const redone = patchOutcomes([step(REAPPLY_STEP, { undoKey: 'ka' }, 4_000), restore, step(RESTORE_STEP, { beforeStep: 1, redo: true }, 6_000)], patches);
  assert.deepEqual(redone.get('ka'), { reappliedAt: 4_000 });
  assert.equal(redone.get('kb'), undefined);
  const writtenAgain = patchOutcomes(
    [restore, step(REAPPLY_STEP, { undoKey: 'kb' }, 5_500), step(RESTORE_STEP, { beforeStep: 1, redo: true }, 6_000)],
    patches,
  );
  assert.deepEqual(writtenAgain.get('kb'), { reappliedAt: 5_500 });
  assert.deepEqual(writtenAgain.get('ka'), undefined);
  // Without the patches (an old caller), restores change nothing.
  assert.equal(patchOutcomes([restore]).size, 0);
});
