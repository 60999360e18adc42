import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseErr, text } from './helpers';

describe('unified diff: every error says what was expected, where, and what was found', () => {
  const cases: Array<[string, string, RegExp, number]> = [
    [
      'hunk without a file header',
      text('Fix:', '@@ -1 +1 @@', '-a', '+b'),
      /hunk header `@@ -1 \+1 @@` has no file header before it: expected `--- a\/path` and `\+\+\+ b\/path`/,
      2,
    ],
    ['--- without +++', text('--- a/x', '@@ -1 +1 @@', '-a', '+b'), /expected `\+\+\+ b\/path` after `--- a\/x`, found `@@ -1 \+1 @@`/, 2],
    [
      'header without hunks',
      text('--- a/x', '+++ b/x', 'I changed the loop.'),
      /file x has a header but no hunks: expected an `@@` line after its `\+\+\+` line, found `I changed the loop\.`/,
      1,
    ],
    ['diff --cc', text('diff --cc f.c', 'index 1,2..3', '@@@ -1,1 -1,1 +1,1 @@@'), /combined merge diffs \(`diff --cc`\) are not supported/, 1],
    ['@@@ header', text('--- a/f', '+++ b/f', '@@@ -1 -1 +1 @@@', '- a'), /combined merge diff header `@@@` is not supported/, 3],
    [
      'removed line in a new file',
      text('--- /dev/null', '+++ b/n.txt', '@@ -0,0 +1 @@', '+a', '-b'),
      /new file n\.txt has a `-` line in its hunk; a new file's hunk may only add lines/,
      3,
    ],
    ['added line in a deleted file', text('--- a/d.txt', '+++ /dev/null', '@@ -1 +0,0 @@', '-a', '+b'), /deleted file d\.txt has a `\+` line in its hunk/, 3],
    [
      'new file without content',
      text('--- /dev/null', '+++ b/n.txt', 'and that is all'),
      /new file n\.txt has no content: expected an `@@` hunk of `\+` lines after its header, found `and that is all`/,
      1,
    ],
    ['both sides /dev/null', text('--- /dev/null', '+++ /dev/null', '@@ -0,0 +1 @@', '+a'), /both creates and deletes the file/, 1],
    ['--- with no path', text('--- ', '+++ b/x', '@@ -1 +1 @@', '-a', '+b'), /file header has no path/, 1],
    ['unclosed quoted path', text('--- "a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b'), /quoted path "a\/x has no closing `"`/, 1],
    ['empty name after a/ prefix', text('--- a/', '+++ b/', '@@ -1 +1 @@', '-a', '+b'), /file header has an empty file name/, 1],
    ['unknown escape in a quoted path', text('--- "a/\\q"', '+++ b/x', '@@ -1 +1 @@', '-a', '+b'), /unknown escape `\\q` in quoted path/, 1],
  ];
  for (const [name, input, message, line] of cases) {
    test(name, () => {
      const e = parseErr(input);
      assert.match(e.message, message);
      assert.equal(e.line, line, e.message);
      assert.ok(e.message.startsWith(`line ${line}: `), e.message);
    });
  }
});
