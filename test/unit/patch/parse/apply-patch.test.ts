import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { body, hasWarning, parseErr, parseOk, text } from './helpers';

describe('apply_patch envelope', () => {
  test('update with one anchored hunk', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: src/app.py', '@@ def main():', '     x = 1', '-    y = 2', '+    y = 3', '*** End Patch'));
    assert.equal(p.format, 'apply_patch');
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath, f.patchLine], ['modify', 'src/app.py', 'src/app.py', 2]);
    const h = f.hunks[0]!;
    assert.deepEqual(h.anchors, ['def main():']);
    assert.deepEqual(body(h), ['     x = 1', '-    y = 2', '+    y = 3']);
    assert.deepEqual([h.index, h.patchLine, h.oldStart], [0, 3, undefined]);
    assert.deepEqual(p.warnings, []);
  });

  test('consecutive @@ lines are nested anchors, outermost first', () => {
    const p = parseOk(
      text(
        '*** Begin Patch',
        '*** Update File: m.py',
        '@@ class Shop',
        '@@     def total(self):',
        '-        return 0',
        '+        return sum(self.items)',
        '*** End Patch',
      ),
    );
    assert.deepEqual(p.files[0]!.hunks[0]!.anchors, ['class Shop', 'def total(self):']);
    assert.equal(p.files[0]!.hunks[0]!.patchLine, 3);
  });

  test('hunks are separated by @@ lines; a first hunk without @@ is fine', () => {
    const p = parseOk(
      text('*** Begin Patch', '*** Update File: a.txt', ' one', '-two', '+2', '@@', ' five', '-six', '+6', '@@ section', '-x', '+y', '*** End Patch'),
    );
    const hunks = p.files[0]!.hunks;
    assert.deepEqual(
      hunks.map((h) => [h.index, h.patchLine, h.anchors]),
      [
        [0, 3, []],
        [1, 6, []],
        [2, 10, ['section']],
      ],
    );
    assert.deepEqual(hunks.map(body), [
      [' one', '-two', '+2'],
      [' five', '-six', '+6'],
      ['-x', '+y'],
    ]);
  });

  test('Add File: + lines become the single hunk of a create', () => {
    const p = parseOk(text('*** Begin Patch', '*** Add File: docs/new.md', '+# Title', '+', '+Body', '*** End Patch'));
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath, f.hunks.length], ['create', null, 'docs/new.md', 1]);
    assert.deepEqual(body(f.hunks[0]), ['+# Title', '+', '+Body']);
  });

  test('Add File with no lines creates an empty file', () => {
    const p = parseOk(text('*** Begin Patch', '*** Add File: .keep', '*** End Patch'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.hunks.length, p.files[0]!.hunks[0]!.lines.length], ['create', 1, 0]);
  });

  test('Add File lines missing their + are kept as added lines marked unprefixed', () => {
    const p = parseOk(text('*** Begin Patch', '*** Add File: a.txt', '+one', 'two', '', '*** End Patch'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['+one', '~+two']);
  });

  test('Delete File: no hunks', () => {
    const p = parseOk(text('*** Begin Patch', '*** Delete File: old/thing.js', '*** End Patch'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.oldPath, p.files[0]!.newPath, p.files[0]!.hunks.length], ['delete', 'old/thing.js', null, 0]);
  });

  test('Move to with hunks is a rename with hunks', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: a/b.ts', '*** Move to: c/d.ts', '@@', '-x', '+y', '*** End Patch'));
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath, f.hunks.length], ['rename', 'a/b.ts', 'c/d.ts', 1]);
  });

  test('Move to alone is a pure rename', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: a.ts', '*** Move to: b.ts', '*** End Patch'));
    assert.deepEqual([p.files[0]!.operation, p.files[0]!.oldPath, p.files[0]!.newPath, p.files[0]!.hunks.length], ['rename', 'a.ts', 'b.ts', 0]);
  });

  test('*** End of File sets atEndOfFile on its hunk', () => {
    const p = parseOk(
      text('*** Begin Patch', '*** Update File: a.txt', '@@', ' last', '+appended', '*** End of File', '@@ other', '-q', '+r', '*** End Patch'),
    );
    const hunks = p.files[0]!.hunks;
    assert.deepEqual(
      hunks.map((h) => h.atEndOfFile ?? false),
      [true, false],
    );
  });

  test('several files of every kind in one envelope', () => {
    const p = parseOk(
      text(
        '*** Begin Patch',
        '*** Add File: n.txt',
        '+n',
        '*** Update File: u.txt',
        '-a',
        '+b',
        '*** Delete File: d.txt',
        '*** Update File: r.txt',
        '*** Move to: r2.txt',
        '*** End Patch',
      ),
    );
    assert.deepEqual(
      p.files.map((f) => [f.operation, f.newPath ?? f.oldPath, f.patchLine]),
      [
        ['create', 'n.txt', 2],
        ['modify', 'u.txt', 4],
        ['delete', 'd.txt', 7],
        ['rename', 'r2.txt', 8],
      ],
    );
  });

  test('missing *** End Patch is tolerated with a warning', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: a.txt', '-a', '+b'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
    assert.ok(hasWarning(p, 'no `*** End Patch`'));
  });

  test('missing *** Begin Patch is tolerated when file markers are clear', () => {
    const p = parseOk(text('Here you go:', '*** Update File: a.txt', '@@', '-a', '+b', '*** End Patch', 'Done.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
    assert.ok(hasWarning(p, 'no `*** Begin Patch`'));
  });

  test('empty and unprefixed lines inside an update hunk', () => {
    const p = parseOk(
      text('*** Begin Patch', '*** Update File: a.py', '@@ def f():', '     a = 1', '', '-    b = 2', '+    b = 3', 'return a', '*** End Patch'),
    );
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['     a = 1', ' ', '-    b = 2', '+    b = 3', '~ return a']);
  });

  test('blank separator lines before the next marker are not context', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: a.txt', '-a', '+b', '', '*** Update File: c.txt', '-c', '+d', '', '*** End Patch'));
    assert.deepEqual(
      p.files.map((f) => body(f.hunks[0])),
      [
        ['-a', '+b'],
        ['-c', '+d'],
      ],
    );
  });

  test('unified-style numbers on an @@ line are kept as hints', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: a.txt', '@@ -10,2 +10,2 @@ fn main', ' x', '-a', '+b', '*** End Patch'));
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual([h.oldStart, h.oldCount, h.newStart, h.newCount, h.anchors], [10, 2, 10, 2, ['fn main']]);
  });

  test('two fenced envelopes are combined; CRLF line endings stripped', () => {
    const p = parseOk(
      [
        'Part one:',
        '```',
        '*** Begin Patch',
        '*** Update File: a.txt',
        '-a',
        '+b',
        '*** End Patch',
        '```',
        'Part two:',
        '```',
        '*** Begin Patch',
        '*** Update File: c.txt',
        '-c',
        '+d',
        '*** End Patch',
        '```',
        '',
      ].join('\r\n'),
    );
    assert.deepEqual(
      p.files.map((f) => [f.newPath, body(f.hunks[0])]),
      [
        ['a.txt', ['-a', '+b']],
        ['c.txt', ['-c', '+d']],
      ],
    );
  });

  test('a fence closes an envelope missing its End Patch', () => {
    const p = parseOk(text('```', '*** Begin Patch', '*** Update File: a.txt', '-a', '+b', '```', 'This changes a to b.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
  });

  test('errors: update without changes, unknown marker, content before a file marker, Move to misplaced', () => {
    const cases: Array<[string, RegExp, number]> = [
      [text('*** Begin Patch', '*** Update File: a.txt', '*** End Patch'), /`\*\*\* Update File: a\.txt` has no changes: expected `@@`/, 2],
      [text('*** Begin Patch', '*** Modify File: a.txt', '-a', '*** End Patch'), /unknown apply_patch marker `\*\*\* Modify File: a\.txt`: expected one of/, 2],
      [text('*** Begin Patch', '@@', '-a', '+b', '*** End Patch'), /expected `\*\*\* Update File: path`.*found `@@`/, 2],
      [
        text('*** Begin Patch', '*** Add File: a.txt', '+x', '*** Move to: b.txt', '*** End Patch'),
        /`\*\*\* Move to:` must follow `\*\*\* Update File: path`/,
        4,
      ],
      [text('*** Begin Patch', '*** Update File:', '-a', '*** End Patch'), /`\*\*\* Update File:` has no path/, 2],
      [text('*** Begin Patch', '*** Delete File: a.txt', 'some text', '*** End Patch'), /`\*\*\* Delete File: a\.txt` takes no content, found `some text`/, 3],
      [text('*** Begin Patch', '*** Add File: a.txt', '*** End of File', '*** End Patch'), /`\*\*\* End of File` outside an `\*\*\* Update File:` section/, 3],
    ];
    for (const [input, message, line] of cases) {
      const e = parseErr(input);
      assert.match(e.message, message);
      assert.equal(e.line, line, e.message);
      assert.ok(e.message.startsWith(`line ${line}: `));
    }
  });

  test('Delete File with the old content listed as - lines keeps them as one hunk', () => {
    const p = parseOk(text('*** Begin Patch', '*** Delete File: a.txt', '-one', '-two', '*** End Patch'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-one', '-two']);
  });

  test('envelope markers indented by a few spaces (or a tab) are still markers', () => {
    const p = parseOk(text('  *** Begin Patch', '  *** Update File: a.txt', '@@', ' keep', '-a', '+b', ' *** End Patch'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' keep', '-a', '+b']);
    assert.ok(!hasWarning(p, 'End Patch'));
    const q = parseOk(
      text(
        'Apply this:',
        '',
        '    *** Begin Patch',
        '    *** Add File: n.txt',
        '+new',
        '\t*** Update File: a.txt',
        '-a',
        '+b',
        '    *** End of File',
        '    *** End Patch',
      ),
    );
    assert.deepEqual(
      q.files.map((f) => [f.operation, f.newPath]),
      [
        ['create', 'n.txt'],
        ['modify', 'a.txt'],
      ],
    );
    assert.equal(q.files[1]!.hunks[0]!.atEndOfFile, true);
  });

  test('an indented line that is not a known marker stays hunk text', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: c.c', ' /*', '  *** careful: shared', '-x();', '+y();', '*** End Patch'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' /*', '  *** careful: shared', '-x();', '+y();']);
  });
});
