import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyParsedPatch } from '../../../../src/core/patch/plan';
import { joinText, splitText } from '../../../../src/core/patch/text';
import { filesOf, hunk, modify, patch } from './helpers';

function apply(text: string, hunks: ReturnType<typeof hunk>[]): string {
  const r = applyParsedPatch(patch(modify('f', hunks)), filesOf({ f: text }));
  assert.equal(r.ok, true, r.error);
  return r.files[0]!.newText!;
}

describe('line endings, BOM and final newline are preserved byte for byte', () => {
  test('split/join round-trips every shape', () => {
    for (const t of ['', '\n', 'a', 'a\n', 'a\r\n', 'a\r\nb\nc', '\uFEFFa\r\nb\r\n', '\r\n\r\n', 'a\rb\n', 'x\n\n\n']) {
      const s = splitText(t);
      assert.equal(joinText(s.lines, s.bom, s.finalNewline, s.dominantEol), t, JSON.stringify(t));
    }
  });

  test('CRLF file, LF patch: added lines get CRLF', () => {
    assert.equal(apply('a\r\nb\r\nc\r\n', [hunk([' a', '-b', '+B', '+B2', ' c'])]), 'a\r\nB\r\nB2\r\nc\r\n');
  });

  test('LF file, patch lines carrying a stray CR still match (trailing whitespace)', () => {
    assert.equal(apply('a\nb\nc\n', [hunk([' a\r', '-b\r', '+B', ' c\r'])]), 'a\nB\nc\n');
  });

  test('mixed endings: existing lines keep theirs, new lines take the dominant one', () => {
    assert.equal(apply('a\r\nb\nc\r\nd\r\n', [hunk([' a', ' b', '+new', ' c'])]), 'a\r\nb\nnew\r\nc\r\nd\r\n');
  });

  test('BOM is kept', () => {
    assert.equal(apply('\uFEFFa\nb\n', [hunk([' a', '-b', '+c'])]), '\uFEFFa\nc\n');
  });

  test('a file without final newline keeps that state', () => {
    assert.equal(apply('a\nb', [hunk([' a', '-b', '+c'])]), 'a\nc');
    assert.equal(apply('a\nb', [hunk([' a', ' b', '+c'])]), 'a\nb\nc');
    assert.equal(apply('a\nb', [hunk([' a', '+x', ' b'])]), 'a\nx\nb');
  });

  test('\\ No newline markers change the state only when they say so', () => {
    // old side had no newline, new side has one: add it
    assert.equal(apply('a\nb', [hunk([' a', '-b', '+b'], { oldNoNewlineAtEnd: true })]), 'a\nb\n');
    // new side has no newline: remove it
    assert.equal(apply('a\nb\n', [hunk([' a', '-b', '+b'], { newNoNewlineAtEnd: true })]), 'a\nb');
    // markers on a hunk that does not reach the end are ignored
    assert.equal(apply('a\nb\nc\n', [hunk([' a', '-b', '+B'], { newNoNewlineAtEnd: true })]), 'a\nB\nc\n');
  });

  test("deleting the last lines: the line that ends the file now keeps its own newline (git's semantics)", () => {
    assert.equal(apply('a\nb\nc\n', [hunk([' a', '-b', '-c'])]), 'a\n');
    assert.equal(apply('a\nb\nc', [hunk([' a', '-b', '-c'])]), 'a\n');
    assert.equal(apply('a\nb\nc', [hunk([' b', '-c'], { oldNoNewlineAtEnd: true })]), 'a\nb\n');
    assert.equal(apply('a\r\nb\r\nc', [hunk([' b', '-c'])]), 'a\r\nb\r\n');
    // Unless the patch says the new last line has no newline either.
    assert.equal(apply('a\nb\nc', [hunk([' a', '-b', '+b', '-c'], { oldNoNewlineAtEnd: true, newNoNewlineAtEnd: true })]), 'a\nb');
    // The last line replaced, not deleted: the file keeps its state.
    assert.equal(apply('a\nb\nc', [hunk([' b', '-c', '+C'])]), 'a\nb\nC');
  });

  test('CRLF file without final newline, lines appended at the end', () => {
    assert.equal(apply('a\r\nb', [hunk([' b', '+c'], { atEndOfFile: true })]), 'a\r\nb\r\nc');
  });
});

describe('hunks meeting at one line', () => {
  test('an insertion at the start of a replaced range goes in front of it, in either patch order (a -U0 patch)', () => {
    const src = 'a\nb\nc\n';
    const ins = hunk(['+top'], { oldStart: 0, oldCount: 0, newStart: 1, newCount: 1 });
    const rep = hunk(['-a', '+A'], { oldStart: 1, oldCount: 1, newStart: 2, newCount: 1 });
    assert.equal(apply(src, [ins, rep]), 'top\nA\nb\nc\n');
    assert.equal(apply(src, [rep, ins]), 'top\nA\nb\nc\n');
  });

  test('hunks sharing context lines at their meeting point are not an overlap', () => {
    const src = 'a\nb\nc\nd\ne\n';
    // The first hunk's trailing context (c) is the second's leading context.
    assert.equal(apply(src, [hunk([' a', '-b', '+B', ' c']), hunk([' c', '-d', '+D', ' e'])]), 'a\nB\nc\nD\ne\n');
    assert.equal(apply(src, [hunk([' a', ' b', '+x', ' c', ' d']), hunk([' c', ' d', '+y', ' e'])]), 'a\nb\nx\nc\nd\ny\ne\n');
  });

  test('hunks sharing a line one of them changes still overlap', () => {
    const r = applyParsedPatch(patch(modify('f', [hunk([' a', '-b', '+B', ' c']), hunk([' b', '-c', '+C', ' d'])])), filesOf({ f: 'a\nb\nc\nd\n' }));
    assert.equal(r.ok, false);
    assert.match(r.error!, /overlaps/);
  });
});
