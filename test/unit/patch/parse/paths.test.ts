import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gitDiffNames, headerName, normalisePath, pathFromFenceInfo, pathFromLine, pathMentionedIn } from '../../../../src/core/patch/parse/paths';
import { body, hasWarning, parseOk, text } from './helpers';

describe('path helpers', () => {
  const lineCases: Array<[string, string | undefined]> = [
    ['src/app.py', 'src/app.py'],
    ['  src/app.py  ', 'src/app.py'],
    ['`src/app.py`', 'src/app.py'],
    ['**src/app.py**', 'src/app.py'],
    ['**`src/app.py`**:', 'src/app.py'],
    ['## src/app.py', 'src/app.py'],
    ['- `src/app.py`', 'src/app.py'],
    ['File: src/app.py', 'src/app.py'],
    ['**File:** `src/app.py`', 'src/app.py'],
    ['src/app.py:', 'src/app.py'],
    ['`my docs/read me.md`', 'my docs/read me.md'],
    ['.gitignore', '.gitignore'],
    ['Makefile', 'Makefile'],
    ['Changes:', undefined],
    ['Here is the fix:', undefined],
    ['my docs/read me.md', undefined],
    ['See https://example.test/x.js', undefined],
    ['That is all.', undefined],
    ['+added.line', undefined],
    ['```python', undefined],
    ['', undefined],
  ];
  for (const [line, expected] of lineCases) {
    test(`pathFromLine(${JSON.stringify(line)})`, () => assert.equal(pathFromLine(line), expected));
  }

  test('pathMentionedIn reads one backticked path on a line ending with a colon', () => {
    assert.equal(pathMentionedIn('Then in `src/b.py`:'), 'src/b.py');
    assert.equal(pathMentionedIn('Then in `src/b.py` we are done.'), undefined);
    assert.equal(pathMentionedIn('Compare `a.py` and `b.py`:'), undefined);
    assert.equal(pathMentionedIn('Use `npm test`:'), undefined);
  });

  test('pathFromFenceInfo', () => {
    assert.equal(pathFromFenceInfo('python'), undefined);
    assert.equal(pathFromFenceInfo('diff'), undefined);
    assert.equal(pathFromFenceInfo('python src/a.py'), 'src/a.py');
    assert.equal(pathFromFenceInfo('src/a.py'), 'src/a.py');
    assert.equal(pathFromFenceInfo('python:src/a.py'), 'src/a.py');
    assert.equal(pathFromFenceInfo('ts title="src/a.ts"'), 'src/a.ts');
  });

  test('normalisePath', () => {
    assert.equal(normalisePath('./a//b/./c'), 'a/b/c');
    assert.equal(normalisePath('a\\b\\c.txt'), 'a/b/c.txt');
    assert.equal(normalisePath('/abs/./x'), '/abs/x');
    assert.equal(normalisePath('../x/../y'), '../x/../y');
  });

  test('headerName: /dev/null, tab timestamps, quoted names', () => {
    assert.equal(headerName('/dev/null', 1), null);
    assert.equal(headerName('a/x y.txt\t2020-01-01', 1), 'a/x y.txt');
    assert.equal(headerName('"a/\\346\\227\\245.txt"', 1), 'a/日.txt');
  });

  test('gitDiffNames: symmetric names with spaces, quoted second name, different names', () => {
    assert.deepEqual(gitDiffNames('a/x y b/x y', 1), { old: 'a/x y', new: 'b/x y' });
    assert.deepEqual(gitDiffNames('a/x "b/\\303\\251"', 1), { old: 'a/x', new: 'b/é' });
    assert.deepEqual(gitDiffNames('a/one b/two', 1), { old: 'a/one', new: 'b/two' });
    assert.equal(gitDiffNames('lonely', 1), undefined);
  });
});

describe('paths named in prose before a block', () => {
  test('SEARCH/REPLACE: "Then in `x`:" names the block file', () => {
    const p = parseOk(
      text(
        'a.py',
        '<<<<<<< SEARCH',
        '1',
        '=======',
        '2',
        '>>>>>>> REPLACE',
        'Then in `lib/b.py`:',
        '```python',
        '<<<<<<< SEARCH',
        '3',
        '=======',
        '4',
        '>>>>>>> REPLACE',
        '```',
      ),
    );
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['a.py', 'lib/b.py'],
    );
  });

  test('unified: a fenced bare hunk after "And in `y`:" goes to y', () => {
    const p = parseOk(
      text('```diff', '--- a/x.py', '+++ b/x.py', '@@ -1 +1 @@', '-a', '+b', '```', 'And in `y.py`:', '```diff', '@@ -3 +3 @@', '-c', '+d', '```'),
    );
    assert.deepEqual(
      p.files.map((f) => [f.newPath, body(f.hunks[0])]),
      [
        ['x.py', ['-a', '+b']],
        ['y.py', ['-c', '+d']],
      ],
    );
    assert.ok(hasWarning(p, 'ignored 1 line(s) of prose and 4 ``` fence line(s) outside the diff'));
  });
});
