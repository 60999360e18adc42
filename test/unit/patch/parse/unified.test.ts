import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { body, hasWarning, parseOk, text } from './helpers';

describe('unified diff: hunks', () => {
  test('plain ---/+++ diff with one hunk', () => {
    const p = parseOk(text('--- a/src/app.ts', '+++ b/src/app.ts', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three'));
    assert.equal(p.format, 'unified');
    assert.equal(p.files.length, 1);
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath, f.patchLine], ['modify', 'src/app.ts', 'src/app.ts', 1]);
    const h = f.hunks[0]!;
    assert.deepEqual(body(h), [' one', '-two', '+TWO', ' three']);
    assert.deepEqual([h.index, h.oldStart, h.oldCount, h.newStart, h.newCount, h.patchLine], [0, 1, 3, 1, 3, 3]);
    assert.deepEqual(h.anchors, []);
    assert.deepEqual(p.warnings, []);
  });

  test('several files and several hunks keep patch order and 0-based indexes', () => {
    const p = parseOk(
      text(
        '--- a/x.txt',
        '+++ b/x.txt',
        '@@ -1 +1 @@',
        '-a',
        '+A',
        '@@ -10,2 +10,2 @@',
        ' k',
        '-l',
        '+L',
        '--- a/y.txt',
        '+++ b/y.txt',
        '@@ -5 +5,2 @@',
        ' m',
        '+n',
      ),
    );
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['x.txt', 'y.txt'],
    );
    assert.deepEqual(
      p.files[0]!.hunks.map((h) => [h.index, h.patchLine]),
      [
        [0, 3],
        [1, 6],
      ],
    );
    assert.deepEqual(
      p.files[1]!.hunks.map((h) => [h.index, h.patchLine]),
      [[0, 12]],
    );
    assert.equal(p.files[1]!.patchLine, 10);
  });

  const headerCases: Array<[string, string, Partial<Record<'oldStart' | 'oldCount' | 'newStart' | 'newCount', number>>, string[]]> = [
    ['full numbers', '@@ -3,2 +3,2 @@', { oldStart: 3, oldCount: 2, newStart: 3, newCount: 2 }, []],
    ['omitted counts mean 1', '@@ -7 +7 @@', { oldStart: 7, oldCount: 1, newStart: 7, newCount: 1 }, []],
    ['bare @@', '@@', {}, []],
    ['@@ @@', '@@ @@', {}, []],
    ['heading becomes an anchor', '@@ -3,2 +3,2 @@ def handler(event):', { oldStart: 3, oldCount: 2, newStart: 3, newCount: 2 }, ['def handler(event):']],
    ['missing closing @@', '@@ -3,2 +3,2', { oldStart: 3, oldCount: 2, newStart: 3, newCount: 2 }, []],
    ['only the old range', '@@ -3,2 @@', { oldStart: 3, oldCount: 2 }, []],
    ['anchor text without numbers', '@@ class Foo', {}, ['class Foo']],
  ];
  for (const [name, header, numbers, anchors] of headerCases) {
    test(`hunk header: ${name}`, () => {
      const p = parseOk(text('--- a/f', '+++ b/f', header, ' x', '-y', '+z'));
      const h = p.files[0]!.hunks[0]!;
      assert.deepEqual(
        { oldStart: h.oldStart, oldCount: h.oldCount, newStart: h.newStart, newCount: h.newCount },
        { oldStart: undefined, oldCount: undefined, newStart: undefined, newCount: undefined, ...numbers },
      );
      assert.deepEqual(h.anchors, anchors);
      assert.deepEqual(body(h), [' x', '-y', '+z']);
    });
  }

  test('a bare @@ is reported as a warning', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', '-y', '+z'));
    assert.ok(hasWarning(p, 'no line numbers'));
  });

  test('wrong counts never cut the body: the body wins and the mismatch is reported', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', ' a', '-b', '+c', ' d', ' e', '+f'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a', '-b', '+c', ' d', ' e', '+f']);
    assert.ok(hasWarning(p, 'header says -1,2 +1,2 but the body has 4 old and 5 new'));
  });

  test('counts too large: the hunk ends at the next @@ anyway', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1,9 +1,9 @@', '-a', '+b', '@@ -20 +20 @@', '-c', '+d'));
    assert.deepEqual(p.files[0]!.hunks.map(body), [
      ['-a', '+b'],
      ['-c', '+d'],
    ]);
  });

  test('an empty line inside a hunk is an empty context line', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', ' a', '', '-b', '+c', '', ' d'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a', ' ', '-b', '+c', ' ', ' d']);
  });

  test('a line without a valid prefix is unprefixed context, text as written', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', ' a', 'def foo():', '-    x = 1', '+    x = 2'));
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual(body(h), [' a', '~ def foo():', '-    x = 1', '+    x = 2']);
    assert.equal(h.lines[1]!.unprefixed, true);
    assert.ok(hasWarning(p, 'without a'));
  });

  test('trailing blank lines after a hunk are dropped when the counts do not need them', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', '-a', '+b', '', '', '--- a/g', '+++ b/g', '@@', '-c', '+d'));
    assert.deepEqual(
      p.files.map((f) => body(f.hunks[0])),
      [
        ['-a', '+b'],
        ['-c', '+d'],
      ],
    );
  });

  test('a trailing empty context line is kept when the counts include it', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1,3 +1,3 @@', ' a', '-b', '+c', ''));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a', '-b', '+c', ' ']);
  });

  test('prose right after a complete hunk (counts met) is not read as context', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', ' a', '-b', '+c', 'This renames b to c.', 'Run the tests after.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a', '-b', '+c']);
  });

  test('counts met but prefixed lines follow a blank: the body continues', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', ' a', '-b', '+c', '', ' d'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a', '-b', '+c', ' ', ' d']);
  });

  test('\\ No newline at end of file after a removed line marks the old side', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1 +1 @@', '-a', '\\ No newline at end of file', '+a'));
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual([h.oldNoNewlineAtEnd, h.newNoNewlineAtEnd, h.atEndOfFile], [true, undefined, true]);
    assert.deepEqual(body(h), ['-a', '+a']);
  });

  test('\\ No newline at end of file after an added line marks the new side', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1 +1 @@', '-a', '+b', '\\ No newline at end of file'));
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual([h.oldNoNewlineAtEnd, h.newNoNewlineAtEnd], [undefined, true]);
  });

  test('\\ No newline at end of file after a context line marks both sides', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', '-a', '+b', ' c', '\\ No newline at end of file'));
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual([h.oldNoNewlineAtEnd, h.newNoNewlineAtEnd, h.atEndOfFile], [true, true, true]);
  });

  test('a removed line that starts with "-- " is not a file header', () => {
    // SQL comment lines removed and added: `--- old` / `+++ new` without a following @@.
    const p = parseOk(text('--- a/q.sql', '+++ b/q.sql', '@@', ' select 1;', '--- old comment', '+++ new comment', ' select 2;'));
    assert.equal(p.files.length, 1);
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' select 1;', '--- old comment', '+++ new comment', ' select 2;']);
  });

  test('"--- x" then "+++ y" then "@@" inside a hunk starts a new file', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', '-a', '+b', '--- a/g', '+++ b/g', '@@', '-c', '+d'));
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['f', 'g'],
    );
  });

  test('"--- x" then a non-matching "+++ y" then "@@" inside a hunk are removed/added lines', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', '-a', '--- x', '+++ y', '@@', '-c', '+d'));
    assert.equal(p.files.length, 1);
    assert.deepEqual(p.files[0]!.hunks.map(body), [
      ['-a', '--- x', '+++ y'],
      ['-c', '+d'],
    ]);
  });

  test('"--- x" after a hunk whose counts are complete is a header, not a removal', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1 +1 @@', '-a', '+b', '--- a/g', '+++ b/g', '', '@@ -1 +1 @@', '-c', '+d'));
    assert.deepEqual(
      p.files.map((f) => [f.newPath, body(f.hunks[0])]),
      [
        ['f', ['-a', '+b']],
        ['g', ['-c', '+d']],
      ],
    );
  });

  test('CRLF patches: \\r is stripped from every line, trailing whitespace kept', () => {
    const p = parseOk('--- a/f\r\n+++ b/f\r\n@@ -1,2 +1,2 @@\r\n a  \r\n-b\r\n+c\t\r\n');
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a  ', '-b', '+c\t']);
    assert.equal(p.files[0]!.newPath, 'f');
  });

  test('a patch without a final newline parses the same', () => {
    const p = parseOk('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b');
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
  });

  test('timestamps after a tab (diff -u) and after spaces are not part of the path', () => {
    const p = parseOk(text('--- src/a.c\t2024-01-02 10:00:00.000000000 +0100', '+++ src/a.c  2024-01-02 10:05:00 +0100', '@@ -1 +1 @@', '-x', '+y'));
    assert.deepEqual([p.files[0]!.oldPath, p.files[0]!.newPath], ['src/a.c', 'src/a.c']);
  });

  test('an empty hunk is dropped with a warning', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@ -1 +1 @@', '@@ -4 +4 @@', '-a', '+b'));
    assert.equal(p.files[0]!.hunks.length, 1);
    assert.equal(p.files[0]!.hunks[0]!.index, 0);
    assert.ok(hasWarning(p, 'empty hunk'));
  });
});
