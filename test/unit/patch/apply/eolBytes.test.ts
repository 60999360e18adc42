import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../../src/core/patch/plan';
import { gitDiff } from './gitDiff';

/**
 * Line endings and final newlines, byte for byte, against the real `git diff`: the patch is what
 * git writes for old -> new (LF headers; a CRLF line's `\r` inside the body), and PatchPilot must
 * produce exactly the new bytes, as `git apply` does.
 */

function expectGitBytes(oldText: string, newText: string, context = 3): void {
  const patchText = gitDiff(oldText, newText, context);
  const r = applyPatchToTexts(patchText, new Map([['f.txt', oldText]]));
  assert.equal(r.ok, true, `${r.error}\n${patchText}`);
  assert.equal(JSON.stringify(r.files[0]!.newText), JSON.stringify(newText), patchText);
}

describe('line endings and final newline against git diff, byte for byte', () => {
  test('a literal \\r at the end of a last line without newline is content and stays', () => {
    expectGitBytes('a\nb\nc\r', 'A\nb\nc\r');
    expectGitBytes('a\nb\nc\r', 'a\nb\nC\r');
    expectGitBytes('a\nb\nc\r', 'a\nb\nc\r\nd');
    expectGitBytes('a\nb\nc\r', 'a\nb\nc\r\nd\n');
    expectGitBytes('x\r\ny\r', 'x\r\nz\r\ny\r');
  });

  test("in a file that mixes endings, the patch keeps each added line's own ending", () => {
    expectGitBytes('a\r\nb\nc\r\nd\n', 'a\r\nNEW\r\nb\nc\r\nd\n');
    expectGitBytes('a\r\nb\r\nc\nd\r\n', 'a\r\nb\r\nc\nlf line\nd\r\n');
    expectGitBytes('one\ntwo\r\nthree\nfour\r\nfive\n', 'one\ntwo\r\n3\r\n3b\nfour\r\nfive\n');
  });

  test('deleting the last line of a file without final newline leaves the line before it with its newline', () => {
    expectGitBytes('a\nb\nc', 'a\nb\n');
    expectGitBytes('a\nb\nc\nd', 'a\nb\n');
    expectGitBytes('a\r\nb\r\nc', 'a\r\nb\r\n');
    expectGitBytes('only', '');
  });

  test('adding and dropping the final newline', () => {
    expectGitBytes('a\nb', 'a\nb\n');
    expectGitBytes('a\nb\n', 'a\nb');
    expectGitBytes('a\r\nb\r\n', 'a\r\nB');
  });

  test("a CRLF file and git's CRLF body lines", () => {
    expectGitBytes('a\r\nb\r\nc\r\n', 'a\r\nB\r\nB2\r\nc\r\n');
    expectGitBytes('a\r\nb\r\nc\r\n', 'a\r\nc\r\n', 0);
  });
});

describe('line endings the patch carries but the file does not prove', () => {
  test('a diff made on a CRLF checkout, applied to the LF file: new lines follow the file', () => {
    const patchText = gitDiff('a\r\nb\r\nc\r\n', 'a\r\nb\r\nnew\r\nc\r\n');
    const r = applyPatchToTexts(patchText, new Map([['f.txt', 'a\nb\nc\n']]));
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, 'a\nb\nnew\nc\n');
  });
});
