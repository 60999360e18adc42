import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { body, hasWarning, parseErr, parseOk, text } from './helpers';

/** The variants other tools' SEARCH/REPLACE readers accept, and models therefore write. */

const sr = (search: string[], replace: string[], open = '<<<<<<< SEARCH', close = '>>>>>>> REPLACE') => [open, ...search, '=======', ...replace, close];

describe('SEARCH/REPLACE: fences, tags and where the path is', () => {
  const wrappings: Array<[string, string[], string[]]> = [
    ['<source> tag after the path line', ['lib/a.js', '<source>'], ['</source>']],
    ['<source>lang tag, path inside', ['<source>javascript', 'lib/a.js'], ['</source>']],
    ['<code> tag with a lang attribute', ['`lib/a.js`', '<code lang="js">'], ['</code>']],
    ['<code file="..."> tag naming the path', ['<code file="lib/a.js">'], ['</code>']],
    ['<pre> tag', ['lib/a.js', '<pre>'], ['</pre>']],
    ['file name in its own fence before the block', ['```', 'lib/a.js', '```', '', '```js'], ['```']],
    ['file name in its own fence, block unfenced', ['```text', 'lib/a.js', '```'], []],
    ['bold path, blank line, fence', ['**lib/a.js**', '', '```js'], ['```']],
  ];
  for (const [name, before, after] of wrappings) {
    test(name, () => {
      const p = parseOk(text('Here is the fix.', '', ...before, ...sr(['let n = 1;'], ['let n = 2;']), ...after, '', 'Done.'));
      assert.equal(p.format, 'search_replace');
      assert.deepEqual(
        p.files.map((f) => f.newPath),
        ['lib/a.js'],
      );
      assert.deepEqual(body(p.files[0]!.hunks[0]), ['-let n = 1;', '+let n = 2;']);
    });
  }

  test('tags inside the block are content', () => {
    const p = parseOk(text('page.html', ...sr(['<code>', 'x', '</code>'], ['<pre>', 'x', '</pre>'])));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-<code>', '-x', '-</code>', '+<pre>', '+x', '+</pre>']);
  });

  test('a git diff quoted in the prose beside the blocks is not the patch, even a broken one', () => {
    const p = parseOk(
      text('Last time I sent this diff, which failed:', '--- a/old.py', '@@ -1 +1 @@', '-x', '', 'Instead:', 'src/new.py', ...sr(['a = 1'], ['a = 2'])),
    );
    assert.equal(p.format, 'search_replace');
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['src/new.py'],
    );
    assert.ok(hasWarning(p, 'ignored the unified diff outside the SEARCH/REPLACE blocks'));
  });
});

describe('SEARCH/REPLACE: Roo Code and Cline markers', () => {
  test('Roo header: :start_line:, :end_line: and the ------- line are not text; start_line is the line hint', () => {
    const p = parseOk(
      text('src/m.ts', '<<<<<<< SEARCH', ':start_line:12', ':end_line:13', '-------', '  a();', '  b();', '=======', '  a();', '  c();', '>>>>>>> REPLACE'),
    );
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual(body(h), ['   a();', '-  b();', '+  c();']);
    assert.equal(h.oldStart, 12);
    assert.ok(hasWarning(p, 'Roo Code block header'));
  });

  test('Roo header with only :start_line: and no separator, and the separator alone', () => {
    const a = parseOk(text('f.py', '<<<<<<< SEARCH', ':start_line: 3', 'x = 1', '=======', 'x = 2', '>>>>>>> REPLACE'));
    assert.deepEqual([body(a.files[0]!.hunks[0]), a.files[0]!.hunks[0]!.oldStart], [['-x = 1', '+x = 2'], 3]);
    const b = parseOk(text('f.py', '<<<<<<< SEARCH', '-------', 'x = 1', '=======', 'x = 2', '>>>>>>> REPLACE'));
    assert.deepEqual(body(b.files[0]!.hunks[0]), ['-x = 1', '+x = 2']);
  });

  test('a dash line that is not the exact separator stays text when there is no header', () => {
    const p = parseOk(text('notes.md', '<<<<<<< SEARCH', '---', 'title: x', '=======', '---', 'title: y', '>>>>>>> REPLACE'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' ---', '-title: x', '+title: y']);
  });

  test('N | prefixes from a numbered read are stripped when every SEARCH line has one, consecutively', () => {
    const p = parseOk(
      text(
        'src/s.js',
        '<<<<<<< SEARCH',
        ' 9 | function f() {',
        '10 |   return 1;',
        '11 | }',
        '=======',
        ' 9 | function f() {',
        '10 |   return 2;',
        '11 | }',
        '>>>>>>> REPLACE',
      ),
    );
    const h = p.files[0]!.hunks[0]!;
    assert.deepEqual(body(h), [' function f() {', '-  return 1;', '+  return 2;', ' }']);
    assert.equal(h.oldStart, 9);
    assert.ok(hasWarning(p, 'line-number prefixes removed'));
  });

  test('numbered SEARCH, REPLACE written partly without numbers; an empty numbered line', () => {
    const p = parseOk(
      text('a.py', '<<<<<<< SEARCH', '4 | if x:', '5 |', '6 |     go()', '=======', '4 | if x:', '    log()', '', '6 |     go()', '>>>>>>> REPLACE'),
    );
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' if x:', '+    log()', ' ', '     go()']);
  });

  test('numbers that do not run consecutively are content', () => {
    const p = parseOk(text('t.txt', '<<<<<<< SEARCH', '1 | a', '3 | b', '=======', '1 | a', '3 | c', '>>>>>>> REPLACE'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' 1 | a', '-3 | b', '+3 | c']);
  });

  test('Cline markers with more than seven dashes or pluses, and a trailing >', () => {
    for (const [open, close] of [
      ['--------- SEARCH', '+++++++++ REPLACE'],
      ['------- SEARCH>', '+++++++ REPLACE>'],
      ['<<<<<<<<<< SEARCH', '>>>>>>>>>> REPLACE'],
      ['--- SEARCH', '+++ REPLACE'],
    ]) {
      const p = parseOk(text('src/x.ts', ...sr(['old'], ['new'], open, close)));
      assert.deepEqual(body(p.files[0]!.hunks[0]), ['-old', '+new'], open);
    }
  });
});

describe('SEARCH/REPLACE: a closing marker cut off at the end of the message', () => {
  test('unfenced: the replacement runs to the end of the text', () => {
    const p = parseOk(text('a.txt', ...sr(['1'], ['one']), 'b.txt', '<<<<<<< SEARCH', 'x', 'y', '=======', 'X', 'y'));
    assert.deepEqual(body(p.files[1]!.hunks[0]), ['-x', '+X', ' y']);
    assert.ok(hasWarning(p, 'the last block for b.txt has no `>>>>>>> REPLACE` line'));
  });

  test('blank lines at the cut: text when SEARCH ends with as many, else refused', () => {
    const p = parseOk(text('b.txt', '<<<<<<< SEARCH', 'x', '', '=======', 'X', ''));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-x', '+X', ' ']);
    const e = parseErr(text('b.txt', '<<<<<<< SEARCH', 'x', '=======', 'X', ''));
    assert.match(e.message, /after 1 blank line\(s\), and whether they belong to the replacement cannot be told/);
  });

  test('fenced: the replacement ends at the closing fence; prose after it is prose', () => {
    const p = parseOk(text('b.txt', '```', '<<<<<<< SEARCH', 'x', '=======', 'X', '```', '', 'That renames it.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-x', '+X']);
    const q = parseOk(text('b.txt', '<source>', '<<<<<<< SEARCH', 'x', '=======', 'X', 'Y'));
    assert.deepEqual(body(q.files[0]!.hunks[0]), ['-x', '+X', '+Y']);
  });

  test('refused when the end is not certain: a fence in an unfenced block, a prose paragraph, a later block', () => {
    const cases: Array<[string, RegExp]> = [
      [text('b.txt', '<<<<<<< SEARCH', 'x', '=======', 'X', '```'), /the fence at line 6 may or may not end the replacement/],
      [text('b.txt', '<<<<<<< SEARCH', 'x', '=======', 'X', '', 'Let me know if this works for you.'), /reads as prose/],
      [
        text('b.txt', '<<<<<<< SEARCH', 'x', '=======', 'X', 'c.txt', '<<<<<<< SEARCH', 'y', '=======', 'Y', '>>>>>>> REPLACE'),
        /is not closed: expected `>>>>>>> REPLACE` before `<<<<<<< SEARCH`/,
      ],
    ];
    for (const [input, message] of cases) assert.match(parseErr(input).message, message);
  });
});

describe('SEARCH/REPLACE: a marker line is never content', () => {
  test('a doubled divider is refused with what to do', () => {
    for (const replace of [
      ['=======', 'b'],
      ['b', '======='],
      ['a', '=======', 'b'],
    ]) {
      const e = parseErr(text('f.txt', '<<<<<<< SEARCH', 'a', '=======', ...replace, '>>>>>>> REPLACE'));
      assert.match(e.message, /has a second `=======` divider \(line 4 and line \d\).*Split it into two blocks.*`\\=======`/);
    }
  });

  test('escaped marker lines are content without the backslash', () => {
    const p = parseOk(
      text('conflict.txt', '<<<<<<< SEARCH', '\\<<<<<<< SEARCH', 'ours', '\\=======', 'theirs', '\\>>>>>>> REPLACE', '=======', 'ours', '>>>>>>> REPLACE'),
    );
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-<<<<<<< SEARCH', '-ours', '-=======', '-theirs', '->>>>>>> REPLACE', '+ours']);
    const q = parseOk(text('x.txt', '<<<<<<< SEARCH', 'a', '=======', '\\notes', '>>>>>>> REPLACE'));
    assert.deepEqual(body(q.files[0]!.hunks[0]), ['-a', '+\\notes']);
  });
});

describe('SEARCH/REPLACE: line endings in a patch that mixes them', () => {
  test('lines that ended in CRLF keep that as their ending; the others are LF', () => {
    const p = parseOk('f.txt\n<<<<<<< SEARCH\na\r\nb\n=======\na\r\nB\r\n>>>>>>> REPLACE\n');
    const lines = p.files[0]!.hunks[0]!.lines;
    assert.deepEqual(
      lines.map((l) => [l.kind, l.text, l.eol]),
      [
        ['context', 'a', '\r\n'],
        ['remove', 'b', '\n'],
        ['add', 'B', '\r\n'],
      ],
    );
  });

  test('a patch that is CRLF throughout carries no endings', () => {
    const p = parseOk('f.txt\r\n<<<<<<< SEARCH\r\na\r\n=======\r\nb\r\n>>>>>>> REPLACE\r\n');
    assert.deepEqual(
      p.files[0]!.hunks[0]!.lines.map((l) => l.eol),
      [undefined, undefined],
    );
  });
});
