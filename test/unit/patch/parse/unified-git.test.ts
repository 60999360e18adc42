import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { body, hasWarning, parseErr, parseOk, text } from './helpers';

describe('unified diff: git headers, paths, create/delete/rename/binary', () => {
  test('diff --git with index line', () => {
    const p = parseOk(text('diff --git a/lib/x.js b/lib/x.js', 'index 83db48f..bf269f4 100644', '--- a/lib/x.js', '+++ b/lib/x.js', '@@ -1 +1 @@', '-a', '+b'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.oldPath, p.files[0]!.patchLine], ['modify', 'lib/x.js', 1]);
    assert.equal(p.files[0]!.hunks[0]!.patchLine, 5);
  });

  test('new file with /dev/null and new file mode', () => {
    const p = parseOk(
      text('diff --git a/n.txt b/n.txt', 'new file mode 100644', 'index 0000000..e69de29', '--- /dev/null', '+++ b/n.txt', '@@ -0,0 +1,2 @@', '+one', '+two'),
    );
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath], ['create', null, 'n.txt']);
    assert.equal(f.hunks.length, 1);
    assert.deepEqual(body(f.hunks[0]), ['+one', '+two']);
  });

  test('an empty new file (new file mode, no hunk) is a create with one empty hunk', () => {
    const p = parseOk(text('diff --git a/empty b/empty', 'new file mode 100644', 'index 0000000..e69de29'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.newPath, p.files[0]!.hunks.length, p.files[0]!.hunks[0]!.lines.length], ['create', 'empty', 1, 0]);
  });

  test('a new file whose lines lost their + are read as added lines (still marked unprefixed)', () => {
    const p = parseOk(text('--- /dev/null', '+++ b/n.py', '@@ -0,0 +1,3 @@', '+import os', 'print(os.name)', '+x = 1'));
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual(body(h), ['+import os', '~+print(os.name)', '+x = 1']);
    assert.ok(hasWarning(p, 'read as added lines'));
  });

  test('deleted file with /dev/null keeps its removed lines', () => {
    const p = parseOk(
      text(
        'diff --git a/old.txt b/old.txt',
        'deleted file mode 100644',
        'index e69de29..0000000',
        '--- a/old.txt',
        '+++ /dev/null',
        '@@ -1,2 +0,0 @@',
        '-one',
        '-two',
      ),
    );
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath], ['delete', 'old.txt', null]);
    assert.deepEqual(body(f.hunks[0]), ['-one', '-two']);
  });

  test('pure rename with no hunks', () => {
    const p = parseOk(
      text('diff --git a/src/old name.ts b/src/new name.ts', 'similarity index 100%', 'rename from src/old name.ts', 'rename to src/new name.ts'),
    );
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath, f.hunks.length], ['rename', 'src/old name.ts', 'src/new name.ts', 0]);
  });

  test('rename with changes', () => {
    const p = parseOk(
      text(
        'diff --git a/a.py b/b.py',
        'similarity index 90%',
        'rename from a.py',
        'rename to b.py',
        'index 1..2 100644',
        '--- a/a.py',
        '+++ b/b.py',
        '@@ -1 +1 @@',
        '-x',
        '+y',
      ),
    );
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath], ['rename', 'a.py', 'b.py']);
    assert.deepEqual(body(f.hunks[0]), ['-x', '+y']);
  });

  test('---/+++ with two different names and no rename lines reads as a rename, with a warning', () => {
    const p = parseOk(text('--- a/one.txt', '+++ b/two.txt', '@@ -1 +1 @@', '-x', '+y'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.oldPath, p.files[0]!.newPath], ['rename', 'one.txt', 'two.txt']);
    assert.ok(hasWarning(p, 'read as a rename'));
  });

  test('mode-only change is ignored with a warning; the rest of the patch is kept', () => {
    const p = parseOk(
      text('diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755', 'diff --git a/x b/x', '--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b'),
    );
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['x'],
    );
    assert.ok(hasWarning(p, 'mode change of run.sh ignored'));
  });

  test('"Binary files ... differ" gives a binary FilePatch', () => {
    const p = parseOk(text('diff --git a/img.png b/img.png', 'index 1..2 100644', 'Binary files a/img.png and b/img.png differ'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.newPath, p.files[0]!.binary, p.files[0]!.hunks.length], ['modify', 'img.png', true, 0]);
  });

  test('GIT binary patch body is skipped and the next file still parses', () => {
    const p = parseOk(
      text(
        'diff --git a/logo.png b/logo.png',
        'new file mode 100644',
        'index 0000000..1111111',
        'GIT binary patch',
        'literal 5',
        'McmZ?wbhEL',
        '',
        'literal 0',
        'HcmV?d00001',
        '',
        'diff --git a/r.md b/r.md',
        '--- a/r.md',
        '+++ b/r.md',
        '@@ -1 +1 @@',
        '-a',
        '+b',
      ),
    );
    assert.deepEqual(
      p.files.map((f) => [f.operation, f.newPath, f.binary ?? false]),
      [
        ['create', 'logo.png', true],
        ['modify', 'r.md', false],
      ],
    );
  });

  test('"Binary files /dev/null and b/x differ" without diff --git is a binary create', () => {
    const p = parseOk(text('Binary files /dev/null and b/font.woff differ'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.oldPath, p.files[0]!.newPath, p.files[0]!.binary], ['create', null, 'font.woff', true]);
  });

  test('git quoted paths with C escapes and UTF-8 octal bytes', () => {
    const p = parseOk(
      text(
        'diff --git "a/sp ace\\303\\251.txt" "b/sp ace\\303\\251.txt"',
        '--- "a/sp ace\\303\\251.txt"',
        '+++ "b/sp ace\\303\\251.txt"',
        '@@ -1 +1 @@',
        '-a',
        '+b',
      ),
    );
    assert.equal(p.files[0]!.newPath, 'sp aceé.txt');
  });

  test('quoted rename targets with escaped quote and tab', () => {
    const p = parseOk(text('diff --git "a/q\\"t" "b/t\\tab"', 'similarity index 100%', 'rename from "q\\"t"', 'rename to "t\\tab"'));
    assert.deepEqual([p.files[0]!.oldPath, p.files[0]!.newPath], ['q"t', 't\tab']);
  });

  const pathCases: Array<[string, string, string, string]> = [
    ['a/ and b/ prefixes', '--- a/src/m.ts', '+++ b/src/m.ts', 'src/m.ts'],
    ['no prefixes', '--- src/m.ts', '+++ src/m.ts', 'src/m.ts'],
    ['./ prefixes', '--- ./src/m.ts', '+++ ./src/m.ts', 'src/m.ts'],
    ['a/./ prefixes and doubled slashes', '--- a/./src//m.ts', '+++ b/./src//m.ts', 'src/m.ts'],
    ['backslashes', '--- a\\src\\m.ts', '+++ a\\src\\m.ts', 'a/src/m.ts'],
    ['absolute path is kept for the applier to refuse', '--- /etc/passwd', '+++ /etc/passwd', '/etc/passwd'],
    ['.. is kept for the applier to refuse', '--- a/../outside.txt', '+++ b/../outside.txt', '../outside.txt'],
  ];
  for (const [name, minus, plus, expected] of pathCases) {
    test(`path normalisation: ${name}`, () => {
      const p = parseOk(text(minus, plus, '@@ -1 +1 @@', '-a', '+b'));
      assert.equal(p.files[0]!.oldPath, expected);
      assert.equal(p.files[0]!.newPath, expected);
    });
  }

  test('diff --git --no-prefix keeps a top-level a/ directory', () => {
    const p = parseOk(text('diff --git a/x.txt a/x.txt', '--- a/x.txt', '+++ a/x.txt', '@@ -1 +1 @@', '-a', '+b'));
    assert.equal(p.files[0]!.newPath, 'x.txt');
    const q = parseOk(text('diff --git lib/x.txt lib/x.txt', '--- lib/x.txt', '+++ lib/x.txt', '@@ -1 +1 @@', '-a', '+b'));
    assert.equal(q.files[0]!.newPath, 'lib/x.txt');
  });

  test('diff --git alone (no ---/+++) names the file for its hunks', () => {
    const p = parseOk(text('diff --git a/k.txt b/k.txt', '@@ -1 +1 @@', '-a', '+b'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.newPath], ['modify', 'k.txt']);
  });

  test('+++ without --- before a hunk is read as a change of that file', () => {
    const p = parseOk(text('+++ b/k.txt', '@@ -1 +1 @@', '-a', '+b'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.newPath], ['modify', 'k.txt']);
    assert.ok(hasWarning(p, 'without a `---`'));
  });

  test('copy with only added lines becomes a create of the target', () => {
    const p = parseOk(
      text('diff --git a/a.txt b/c.txt', 'similarity index 100%', 'copy from a.txt', 'copy to c.txt', '--- a/a.txt', '+++ b/c.txt', '@@ -0,0 +1 @@', '+hello'),
    );
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.oldPath, p.files[0]!.newPath], ['create', null, 'c.txt']);
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['+hello']);
  });

  test('copy without hunks is refused with a reason', () => {
    const e = parseErr(text('diff --git a/a.txt b/c.txt', 'similarity index 100%', 'copy from a.txt', 'copy to c.txt'));
    assert.match(e.message, /copying a\.txt to c\.txt is not supported/);
    assert.match(e.message, /send c\.txt as a new file/);
    assert.equal(e.line, 1);
  });

  test('copy with changes relative to the source is refused', () => {
    const e = parseErr(
      text('diff --git a/a.txt b/c.txt', 'copy from a.txt', 'copy to c.txt', '--- a/a.txt', '+++ b/c.txt', '@@ -1,2 +1,2 @@', ' x', '-y', '+z'),
    );
    assert.match(e.message, /copying a\.txt to c\.txt is not supported/);
  });

  test('two sections for the same file are joined with renumbered hunks', () => {
    const p = parseOk(
      text('```diff', '--- a/f', '+++ b/f', '@@ -1 +1 @@', '-a', '+b', '```', 'and later:', '```diff', '--- a/f', '+++ b/f', '@@ -9 +9 @@', '-c', '+d', '```'),
    );
    assert.equal(p.files.length, 1);
    assert.deepEqual(
      p.files[0]!.hunks.map((h) => [h.index, h.patchLine]),
      [
        [0, 4],
        [1, 12],
      ],
    );
    assert.ok(hasWarning(p, 'joined'));
  });
});
