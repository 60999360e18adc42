import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../src/core/patch';
import { buildAnswer, hunkDeltas, placeHunks, reviewFiles, rightTexts, sameText, type HunkChoice } from '../../../src/host/vscode/diff/diffReviewLogic';
import { FakeWorkspaceFs } from '../../support/fakes';
import { PatchManager } from '../../../src/core/patch';

const left = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10', 'a11', 'a12', ''].join('\n');
const patch = `--- a/f.txt
+++ b/f.txt
@@ -1,3 +1,4 @@
 a1
+new after a1
 a2
 a3
@@ -9,4 +10,3 @@
 a9
-a10
 a11
 a12
`;

function dry() {
  return applyPatchToTexts(patch, new Map([['f.txt', left]]), { dryRun: true });
}

describe('diff review logic', () => {
  test('the right side for a set of accepted hunks is the engine dry run', () => {
    const files = reviewFiles(dry());
    assert.deepEqual(
      files[0]!.hunks.map((h) => h.id),
      ['f.txt#1', 'f.txt#2'],
    );
    const all = rightTexts(patch, files, new Set(['f.txt#1', 'f.txt#2'])).get('f.txt');
    assert.equal(all, left.replace('a1\n', 'a1\nnew after a1\n').replace('a10\n', ''));
    const first = rightTexts(patch, files, new Set(['f.txt#1'])).get('f.txt');
    assert.equal(first, left.replace('a1\n', 'a1\nnew after a1\n'));
  });

  test('hunks are placed in the right side, shifted by the accepted hunks before them', () => {
    const files = reviewFiles(dry());
    const deltas = hunkDeltas(patch, files[0]!, files);
    assert.deepEqual([...deltas.values()], [1, -1]);
    const both = placeHunks(files[0]!, deltas, new Set(['f.txt#1', 'f.txt#2']));
    assert.deepEqual(
      both.map((p) => [p.line, p.lineCount]),
      [
        [0, 4],
        [9, 3],
      ],
    );
    const secondOnly = placeHunks(files[0]!, deltas, new Set(['f.txt#2']));
    assert.deepEqual(
      secondOnly.map((p) => [p.line, p.lineCount, p.accepted]),
      [
        [0, 3, false],
        [8, 3, true],
      ],
    );
  });

  test('accept one hunk, reject the other with a reason: the answer applies exactly the accepted hunk', async () => {
    const files = reviewFiles(dry());
    const choices = new Map<string, HunkChoice>([
      ['f.txt#1', { accepted: true }],
      ['f.txt#2', { accepted: false, reason: ' keep a10 ' }],
    ]);
    const engine = rightTexts(patch, files, new Set(['f.txt#1']));
    const answer = buildAnswer({ files, choices, engineTexts: engine, documentTexts: new Map(engine) });
    assert.deepEqual(answer, { acceptedHunks: ['f.txt#1'], hunkReasons: { 'f.txt#2': 'keep a10' } });
    const fs = new FakeWorkspaceFs({ 'f.txt': left });
    const r = await new PatchManager({ root: '/x', fs }).apply(patch, { acceptedHunks: new Set(answer.acceptedHunks) });
    assert.equal(r.ok, true);
    assert.equal(fs.disk.get('f.txt'), left.replace('a1\n', 'a1\nnew after a1\n'));
  });

  test('what the user typed on the right becomes an editedPatch that writes exactly that text', async () => {
    const files = reviewFiles(dry());
    const engine = rightTexts(patch, files, new Set(['f.txt#1', 'f.txt#2']));
    const typed = engine.get('f.txt')!.replace('new after a1', 'my own line');
    const answer = buildAnswer({ files, choices: new Map(), engineTexts: engine, documentTexts: new Map([['f.txt', typed]]), feedback: ' ' });
    assert.deepEqual(answer.acceptedHunks, ['f.txt#1', 'f.txt#2']);
    assert.ok(answer.editedPatch);
    assert.equal(answer.feedback, undefined);
    const fs = new FakeWorkspaceFs({ 'f.txt': left });
    const r = await new PatchManager({ root: '/x', fs }).apply(answer.editedPatch!);
    assert.equal(r.ok, true, r.error);
    assert.equal(fs.disk.get('f.txt'), typed);
  });

  test('a document whose only difference is its line endings is not an edit', () => {
    assert.equal(sameText('a\r\nb\r\n', 'a\nb\n'), true);
    assert.equal(sameText('a\nb\n', 'a\nc\n'), false);
    const files = reviewFiles(dry());
    const engine = rightTexts(patch, files, new Set(['f.txt#1', 'f.txt#2']));
    const answer = buildAnswer({
      files,
      choices: new Map(),
      engineTexts: engine,
      documentTexts: new Map([['f.txt', engine.get('f.txt')!.replace(/\n/g, '\r\n')]]),
    });
    assert.equal(answer.editedPatch, undefined);
  });

  test('a created file is reviewed against an empty left side', () => {
    const create = `--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n`;
    const preview = applyPatchToTexts(create, new Map(), { dryRun: true });
    const files = reviewFiles(preview);
    assert.equal(files[0]!.leftText, null);
    assert.equal(rightTexts(create, files, new Set(['new.txt#1'])).get('new.txt'), 'x\ny\n');
    const typed = buildAnswer({ files, choices: new Map(), engineTexts: new Map([['new.txt', 'x\ny\n']]), documentTexts: new Map([['new.txt', 'x\nz\n']]) });
    const applied = applyPatchToTexts(typed.editedPatch!, new Map());
    assert.equal(applied.files[0]!.newText, 'x\nz\n');
  });
});

test('the hunk under the cursor: the last hunk starting at or above the line', async () => {
  const { hunkAtLine } = await import('../../../src/host/vscode/diff/diffReviewLogic');
  const placements = [
    { id: 'a', line: 0, lineCount: 4, accepted: true },
    { id: 'b', line: 9, lineCount: 3, accepted: true },
  ];
  assert.equal(hunkAtLine(placements, 2)?.id, 'a');
  assert.equal(hunkAtLine(placements, 9)?.id, 'b');
  assert.equal(hunkAtLine(placements, 30)?.id, 'b');
});
