import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyParsedPatch } from '../../../../src/core/patch/plan';
import type { FilePatch } from '../../../../src/core/patch/types';
import { filesOf, hunk, lines, modify, patch } from './helpers';

function refused(text: string, hunks: ReturnType<typeof hunk>[], path = 'f.txt') {
  const r = applyParsedPatch(patch(modify(path, hunks)), filesOf({ [path]: text }));
  assert.equal(r.ok, false, 'expected a refusal');
  assert.equal(r.reversePatch, '');
  assert.equal(r.files[0]!.status, 'refused');
  assert.equal(r.files[0]!.newText, undefined);
  return r;
}

describe('refusals: never silently wrong', () => {
  test('ambiguous with no hint names every place', () => {
    const src = 'begin\nx = 1\nend\nbegin\nx = 1\nend\n';
    const r = refused(src, [hunk([' begin', '-x = 1', '+x = 2', ' end'])]);
    assert.match(r.error!, /f\.txt hunk #1 \(@@, patch line 1\): ambiguous: the old side matches equally at lines 1, 4/);
    assert.match(r.error!, /no line numbers/);
  });

  test('ambiguous where the hint sits between the candidates', () => {
    const src = lines(6, () => 'same') + 'x\n' + lines(6, () => 'same');
    const r = refused(src, [hunk([' same', '-same', '+other', ' same'], { oldStart: 6 })]);
    assert.match(r.error!, /ambiguous/);
  });

  test('a hint far from every candidate does not pick one', () => {
    const src = 'a\n}\nz\n' + lines(100) + '}\nz\n';
    const r = refused(src, [hunk([' }', '+x', ' z'], { oldStart: 60 })]);
    assert.match(r.error!, /does not clearly pick one/);
  });

  test('a wrong removed line is refused with the nearest candidate and a line diff', () => {
    const src = lines(50);
    const r = refused(src, [hunk([' line 20', '-line 21 changed', '+new', ' line 22'], { oldStart: 20 })]);
    assert.match(r.error!, /not found in the file/);
    assert.match(r.error!, /searched for the old side/);
    assert.match(r.error!, /\| line 21 changed/);
    assert.match(r.error!, /nearest candidate at line 20 \(2 of 3 lines equal/);
    assert.match(r.error!, /line 21: patch "line 21 changed"\n\s+file  "line 21"/);
  });

  test('a placement below the confidence threshold is refused with its score', () => {
    const src = 'const a1 = 1;\nconst a2 = 2;\nconst a3 = 3;\nlet   x  =  1;\nlet   y  =  2;\nlet z = 3;\n';
    const r = refused(src, [hunk([' const a1 = 10;', ' const a2 = 20;', ' const a3 = 30;', ' let x = 1;', '-let y = 2;', '+let y = 5;', ' let z = 3;'])]);
    assert.match(r.error!, /best match at line 4 \(context-trimmed\) has confidence 0\.5\d, below 0\.6/);
  });

  test('a removed line is never trimmed to get a match', () => {
    const src = 'a\nb\nc\nd\ne\n';
    refused(src, [hunk([' b', ' c', '-zzz', '+y'])]);
    refused(src, [hunk(['-bb', ' c', ' d', '+y'])]);
  });

  test('stale edge context that is not a look-alike is refused (it could be a missing +)', () => {
    const src = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
    const r = refused(src, [hunk([' const a = 1;', '-const b = 2;', '+const b = 20;', ' console.log(b);'])]);
    assert.match(r.error!, /not found/);
  });

  test('an unprefixed line that already exists in the matched region is not added again: refused', () => {
    // "b" is in the file right there; treating it as added would duplicate it.
    const src = 'a\nb\nc\n';
    refused(src, [hunk([' a', '?b', '?b', ' c'])]);
  });

  test('two lines that could each be the missing + are refused', () => {
    const src = 'a\nb\nc\n';
    refused(src, [hunk([' a', ' x1', ' b', ' x2', ' c'])]);
  });

  test('overlapping hunks are refused', () => {
    const src = lines(10);
    const r = refused(src, [hunk([' line 3', '-line 4', '+L4', ' line 5']), hunk([' line 4', '-line 5', '+L5', ' line 6'])]);
    assert.match(r.error!, /overlaps f\.txt hunk #1/);
  });

  test('an insertion with no context in the middle of a file is refused', () => {
    const r = refused(lines(10), [hunk(['+new'], { oldStart: 5, oldCount: 0 })]);
    assert.match(r.error!, /no context/);
  });

  test('every selected hunk must place, else the whole file (and patch) is refused', () => {
    const src = lines(10);
    const r = refused(src, [hunk([' line 1', '-line 2', '+L2']), hunk([' nope', '-gone', '+x'])]);
    assert.equal(r.files[0]!.hunks[0]!.status, 'would-apply');
    assert.equal(r.files[0]!.hunks[1]!.status, 'refused');
  });

  test('multi-file: one refused file refuses the whole patch', () => {
    const files = filesOf({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const r = applyParsedPatch(patch(modify('a.txt', [hunk(['-a', '+A'])]), modify('b.txt', [hunk(['-zz', '+B'])])), files);
    assert.equal(r.ok, false);
    assert.equal(r.files[0]!.status, 'ok');
    assert.equal(r.files[0]!.hunks[0]!.status, 'would-apply');
    assert.equal(r.files[1]!.status, 'refused');
    assert.equal(r.reversePatch, '');
    assert.match(r.error!, /not applied \(it applies all or nothing\)/);
  });

  const op = (o: Partial<FilePatch>): FilePatch => ({ operation: 'modify', oldPath: null, newPath: null, hunks: [], patchLine: 1, ...o });

  test('create over an existing file with different content is refused; identical content is a no-op', () => {
    const create = op({ operation: 'create', newPath: 'a.txt', hunks: [hunk(['+hello'])] });
    const r = applyParsedPatch(patch(create), filesOf({ 'a.txt': 'other\n' }));
    assert.equal(r.ok, false);
    assert.match(r.error!, /already exists with different content/);
    const same = applyParsedPatch(patch(create), filesOf({ 'a.txt': 'hello\n' }));
    assert.equal(same.ok, true);
    assert.equal(same.reversePatch, '');
  });

  test('delete of a missing file is refused; delete with wrong content is refused', () => {
    const del = op({ operation: 'delete', oldPath: 'a.txt', hunks: [hunk(['-hello'])] });
    assert.match(applyParsedPatch(patch(del), filesOf({})).error!, /does not exist/);
    assert.match(applyParsedPatch(patch(del), filesOf({ 'a.txt': 'bye\n' })).error!, /differs from the file/);
    assert.equal(applyParsedPatch(patch(del), filesOf({ 'a.txt': 'hello\n' })).ok, true);
    assert.equal(applyParsedPatch(patch(op({ operation: 'delete', oldPath: 'a.txt' })), filesOf({ 'a.txt': 'x\n' })).ok, true);
  });

  test('rename onto an existing file is refused', () => {
    const r = applyParsedPatch(patch(op({ operation: 'rename', oldPath: 'a', newPath: 'b' })), filesOf({ a: '1\n', b: '2\n' }));
    assert.match(r.error!, /onto an existing file/);
  });

  test('binary patches are refused with a reason', () => {
    const r = applyParsedPatch(patch(op({ operation: 'modify', oldPath: 'i.png', newPath: 'i.png', binary: true })), filesOf({ 'i.png': 'x' }));
    assert.match(r.error!, /binary patches cannot be applied/);
  });

  test('modify of a missing file is refused', () => {
    const r = applyParsedPatch(patch(modify('nope.txt', [hunk([' a', '-b', '+c'])])), filesOf({}));
    assert.match(r.error!, /does not exist/);
  });

  test('paths escaping the workspace are refused in memory too', () => {
    for (const p of ['../x', '/etc/passwd', 'a/../../x', 'C:/x']) {
      const r = applyParsedPatch(patch(modify(p, [hunk(['-a', '+b'])])), filesOf({ [p]: 'a\n' }));
      assert.equal(r.ok, false, p);
      assert.match(r.error!, /outside the workspace|escapes the workspace/);
    }
  });

  test('a patch with no files is refused', () => {
    assert.match(applyParsedPatch(patch(), filesOf({})).error!, /no file changes/);
  });
});
