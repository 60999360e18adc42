import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOk } from './helpers';

/** Which line endings of the patch text are part of what it says (see splitPatchText). */

const lines = (input: string) => parseOk(input).files[0]!.hunks[0]!.lines.map((l) => [l.kind[0], l.text, l.eol]);

describe('patch line endings', () => {
  test('git diff of a CRLF file (LF headers, CRLF body): each body line carries its ending', () => {
    const input = 'diff --git a/w.txt b/w.txt\n--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,3 @@\n a\r\n-b\r\n+B\r\n+c\n';
    assert.deepEqual(lines(input), [
      ['c', 'a', '\r\n'],
      ['r', 'b', '\r\n'],
      ['a', 'B', '\r\n'],
      ['a', 'c', '\n'],
    ]);
  });

  test('a CR before "\\ No newline at end of file" is content: that line has no ending at all', () => {
    const input = '--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,2 @@\n a\n-b\r\n\\ No newline at end of file\n+b\r\n+c\r\n\\ No newline at end of file\n';
    assert.deepEqual(lines(input), [
      ['c', 'a', '\n'],
      ['r', 'b\r', undefined],
      ['a', 'b', '\r\n'],
      ['a', 'c\r', undefined],
    ]);
  });

  test('apply_patch envelope with mixed endings', () => {
    const input = '*** Begin Patch\n*** Update File: w.txt\n@@\n a\r\n-b\r\n+B\n*** End Patch\n';
    assert.deepEqual(lines(input), [
      ['c', 'a', '\r\n'],
      ['r', 'b', '\r\n'],
      ['a', 'B', '\n'],
    ]);
  });

  test('uniform endings (all LF, all CRLF) say nothing', () => {
    for (const input of ['--- a/w\n+++ b/w\n@@ -1 +1 @@\n-a\n+b\n', '--- a/w\r\n+++ b/w\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n']) {
      assert.deepEqual(lines(input), [
        ['r', 'a', undefined],
        ['a', 'b', undefined],
      ]);
    }
  });
});
