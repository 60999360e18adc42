import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../../src/core/patch/plan';
import { gitDiff } from './gitDiff';
import { createPatch } from 'diff';

/** `git diff -U0` patches (no context at all) apply by their line numbers when those prove themselves. */

const src = ['function a() {', '  return 1;', '}', '', 'function b() {', '  return 2;', '}', '', 'function c() {', '  return 3;', '}', ''].join('\n');

const apply = (patch: string, text = src) => applyPatchToTexts(patch, new Map([['f.txt', text]]));

describe('git diff -U0', () => {
  const edits: Array<[string, string]> = [
    ['replace a repeated line', src.replace('}\n\nfunction b', '};\n\nfunction b')],
    ['insert in the middle (no context) next to a replaced line', src.replace('  return 2;\n', '  log();\n  return 20;\n')],
    ['delete a repeated blank line and insert at the top', '// header\n' + src.replace('}\n\nfunction c', '}\nfunction c')],
    [
      'several hunks of each kind',
      '// header\n' + src.replace('  return 1;\n', '').replace('  return 2;', '  return 20;').replace('  return 3;\n}\n', '  return 3;\n}\n// end\n'),
    ],
  ];
  for (const [name, after] of edits) {
    test(`applies by its numbers: ${name}`, () => {
      const patch = gitDiff(src, after, 0);
      const r = apply(patch);
      assert.equal(r.ok, true, `${r.error}\n${patch}`);
      assert.equal(r.files[0]!.newText, after, patch);
    });
  }

  test('numbers that do not match the removed lines are not trusted: repeated lines are refused, not guessed', () => {
    // (Written by hand: git would add a `function a() {` heading, an anchor that settles it.)
    const patch = ['--- a/f.txt', '+++ b/f.txt', '@@ -4 +4 @@', '-}', '+};', ''].join('\n');
    const r = apply(patch);
    assert.equal(r.ok, false);
    assert.match(
      r.error!,
      /matches equally at lines 3, 7, 11.*its line numbers cannot be trusted \(line 4 of the file is not the line @@ -4,1 \+4,1 @@ removes there\)/s,
    );
  });

  test('unproven numbers leave a unique removed line to its content, and refuse a pure insertion', () => {
    const moved = gitDiff(src, src.replace('  return 2;', '  return 22;'), 0).replace('@@ -6 +6 @@', '@@ -9 +9 @@');
    const r = apply(moved);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, src.replace('  return 2;', '  return 22;'));
    const insert = gitDiff(src, src.replace('  return 2;\n', '  log();\n  return 2;\n'), 0).replace('@@ -5,0 +6 @@', '@@ -7,0 +8 @@');
    const s = apply(insert);
    assert.equal(s.ok, false);
    assert.match(s.error!, /only added lines and no context.*cannot place it/s);
  });

  test('only insertions: nothing ties the numbers to this file, refused', () => {
    const patch = gitDiff(src, src.replace('  return 2;\n', '  log();\n  return 2;\n'), 0);
    const r = apply(patch);
    assert.equal(r.ok, false);
    assert.match(r.error!, /no hunk removes a line that would tie its numbers to this file/);
  });

  test('counts that do not tally the body are not a clean -U0 patch', () => {
    const patch = ['--- a/f.txt', '+++ b/f.txt', '@@ -2,2 +2,1 @@', '-  return 1;', '+  return 10;', ''].join('\n');
    const r = apply(patch);
    assert.equal(r.ok, true, r.error); // located by its (unique) content instead
    assert.equal(r.files[0]!.newText, src.replace('  return 1;', '  return 10;'));
  });

  test("jsdiff's -U0 output (an empty side starts at the line before which it goes) applies too", () => {
    const after = '// top\n' + src.replace('  return 2;\n', '  log();\n  return 20;\n').replace('  return 3;\n', '');
    const patch = createPatch('f.txt', src, after, '', '', { context: 0 });
    const r = apply(patch);
    assert.equal(r.ok, true, `${r.error}\n${patch}`);
    assert.equal(r.files[0]!.newText, after, patch);
  });
});
