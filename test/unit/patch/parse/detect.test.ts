import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatch } from '../../../../src/core/patch/parse';
import { body, hasWarning, parseErr, parseOk, text } from './helpers';

describe('format detection, prose and fences', () => {
  test('prose and a ```diff fence around a unified diff; patchLine counts the prose', () => {
    const p = parseOk(text('I fixed the off-by-one.', '', '```diff', '--- a/f.c', '+++ b/f.c', '@@ -1 +1 @@', '-i <= n', '+i < n', '```', '', 'Let me know.'));
    assert.equal(p.format, 'unified');
    assert.equal(p.files[0]!.patchLine, 4);
    assert.equal(p.files[0]!.hunks[0]!.patchLine, 6);
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-i <= n', '+i < n']);
    assert.ok(hasWarning(p, 'ignored 2 line(s) of prose'));
  });

  test('explanation between several fenced blocks: all parts are combined', () => {
    const p = parseOk(
      text(
        'First the model:',
        '```patch',
        '--- a/m.py',
        '+++ b/m.py',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        '```',
        'Then the view:',
        '```diff',
        'diff --git a/v.py b/v.py',
        '--- a/v.py',
        '+++ b/v.py',
        '@@ -3 +3 @@',
        '-c',
        '+d',
        '```',
      ),
    );
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['m.py', 'v.py'],
    );
  });

  test('a hunk without ---/+++ takes its path from the line before the fence', () => {
    const p = parseOk(text('`src/x.py`', '```diff', '@@ -1 +1 @@', '-a', '+b', '```'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.newPath], ['modify', 'src/x.py']);
    assert.ok(hasWarning(p, 'taken from the text before it'));
  });

  test('a hunk without ---/+++ takes its path from the fence info', () => {
    const p = parseOk(text('```diff src/x.py', '@@', '-a', '+b', '```', '```diff src/y.py', '@@', '-c', '+d', '```'));
    assert.deepEqual(
      p.files.map((f) => [f.newPath, body(f.hunks[0])]),
      [
        ['src/x.py', ['-a', '+b']],
        ['src/y.py', ['-c', '+d']],
      ],
    );
  });

  test('a second fenced hunk with no path continues the file before it', () => {
    const p = parseOk(
      text('```diff', '--- a/f', '+++ b/f', '@@ -1 +1 @@', '-a', '+b', '```', 'and further down:', '```diff', '@@ -40 +40 @@', '-c', '+d', '```'),
    );
    assert.equal(p.files.length, 1);
    assert.deepEqual(p.files[0]!.hunks.map(body), [
      ['-a', '+b'],
      ['-c', '+d'],
    ]);
  });

  test('SEARCH/REPLACE blocks win over a larger diff quoted beside them (the diff is prose)', () => {
    const p = parseOk(
      text(
        '```diff',
        '--- a/u.txt',
        '+++ b/u.txt',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        '@@ -5 +5 @@',
        '-c',
        '+d',
        '```',
        'sr.txt',
        '<<<<<<< SEARCH',
        'x',
        '=======',
        'y',
        '>>>>>>> REPLACE',
      ),
    );
    assert.equal(p.format, 'search_replace');
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['sr.txt'],
    );
    assert.ok(hasWarning(p, 'line 2: ignored the unified diff outside the SEARCH/REPLACE blocks'));
  });

  test('mixed diff and envelope: the larger part is used and the other reported', () => {
    const p = parseOk(
      text(
        '--- a/u.txt',
        '+++ b/u.txt',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        '@@ -5 +5 @@',
        '-c',
        '+d',
        '*** Begin Patch',
        '*** Update File: e.txt',
        '-x',
        '+y',
        '*** End Patch',
      ),
    );
    assert.equal(p.format, 'unified');
    assert.ok(hasWarning(p, 'mixed patch formats: used the unified diff and ignored the apply_patch envelope starting at line 9 (e.txt)'));
  });

  test('mixed formats with equal size: the first one wins', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: a.txt', '-a', '+b', '*** End Patch', '--- a/c.txt', '+++ b/c.txt', '@@', '-c', '+d'));
    assert.equal(p.format, 'apply_patch');
    assert.ok(hasWarning(p, 'ignored the unified diff starting at line 6'));
  });

  test('diff-looking lines inside an apply_patch envelope do not make a second format', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: notes.md', '@@ -1,2 +1,2 @@', '--- old heading', '+++ new heading', '*** End Patch'));
    assert.equal(p.format, 'apply_patch');
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['--- old heading', '+++ new heading']);
    assert.ok(!hasWarning(p, 'mixed'));
  });

  test('a leading BOM and old-Mac \\r line endings', () => {
    const p = parseOk('\ufeff--- a/f\r+++ b/f\r@@ -1 +1 @@\r-a\r+b\r');
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
  });

  test('no patch at all: the error lists the formats looked for', () => {
    const e = parseErr('Sure! I think you should rename the variable to `count`.\n');
    assert.match(e.message, /^no patch found: looked for a unified diff .*apply_patch envelope .*SEARCH\/REPLACE blocks/);
    assert.equal(e.line, undefined);
  });

  test('empty text', () => {
    assert.match(parseErr('').message, /^empty patch text: looked for/);
    assert.match(parseErr(' \n\n\t\n').message, /^empty patch text/);
  });

  test('not a string: a Result, not an exception', () => {
    const r = parsePatch(undefined as unknown as string);
    assert.deepEqual(r, { ok: false, error: { message: 'patch text must be a string' } });
  });

  test('a patch that only changes modes changes no file', () => {
    const e = parseErr(text('diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755'));
    assert.match(e.message, /the unified diff changes no file \(line 1: mode change of run\.sh ignored/);
    assert.equal(e.line, 1);
  });

  test('an empty apply_patch envelope changes no file', () => {
    const e = parseErr(text('*** Begin Patch', '*** End Patch'));
    assert.match(e.message, /the apply_patch envelope changes no file/);
  });
});
