import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { body, hasWarning, parseErr, parseOk, text } from './helpers';

const block = (search: string[], replace: string[]) => ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE'];

describe('SEARCH/REPLACE blocks', () => {
  test('aider style: path line, fence with language, block', () => {
    const p = parseOk(text('src/calc.py', '```python', ...block(['def add(a, b):', '    return a - b'], ['def add(a, b):', '    return a + b']), '```'));
    assert.equal(p.format, 'search_replace');
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath, f.patchLine], ['modify', 'src/calc.py', 'src/calc.py', 1]);
    const h = f.hunks[0]!;
    assert.deepEqual(body(h), [' def add(a, b):', '-    return a - b', '+    return a + b']);
    assert.deepEqual([h.index, h.patchLine], [0, 3]);
  });

  const pathLines: Array<[string, string[]]> = [
    ['plain', ['lib/util.ts']],
    ['backticks', ['`lib/util.ts`']],
    ['bold', ['**lib/util.ts**']],
    ['bold backticks with colon', ['**`lib/util.ts`**:']],
    ['markdown heading', ['### lib/util.ts']],
    ['label', ['File: lib/util.ts']],
    ['first line inside the fence', ['```ts', 'lib/util.ts']],
    ['path in the fence info', ['```ts lib/util.ts']],
    ['path as the whole fence info', ['```lib/util.ts']],
  ];
  for (const [name, before] of pathLines) {
    test(`path line: ${name}`, () => {
      const p = parseOk(text('Change this:', '', ...before, ...block(['a'], ['b']), '```'));
      assert.equal(p.files[0]!.newPath, 'lib/util.ts');
      assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
    });
  }

  test('common leading and trailing lines become context', () => {
    const p = parseOk(text('f.txt', ...block(['a', 'b', 'c', 'd'], ['a', 'B', 'B2', 'd'])));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a', '-b', '-c', '+B', '+B2', ' d']);
  });

  test('pure insertion keeps overlap correct (search is a prefix of replace)', () => {
    const p = parseOk(text('f.txt', ...block(['a', 'b'], ['a', 'b', 'c'])));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' a', ' b', '+c']);
    const q = parseOk(text('f.txt', ...block(['x', 'x'], ['x'])));
    assert.deepEqual(body(q.files[0]!.hunks[0]), [' x', '-x']);
  });

  test('several blocks for one file become hunks of one FilePatch; a block without a path reuses the previous one', () => {
    const p = parseOk(
      text('a.py', ...block(['1'], ['one']), '', ...block(['2'], ['two']), 'b.py', ...block(['3'], ['three']), 'a.py', ...block(['4'], ['four'])),
    );
    assert.deepEqual(
      p.files.map((f) => f.newPath),
      ['a.py', 'b.py'],
    );
    assert.deepEqual(
      p.files[0]!.hunks.map((h) => [h.index, body(h)]),
      [
        [0, ['-1', '+one']],
        [1, ['-2', '+two']],
        [2, ['-4', '+four']],
      ],
    );
  });

  test('an empty SEARCH creates the file with the replace text; later blocks stay in order', () => {
    const p = parseOk(text('new/mod.py', ...block([], ['x = 1', 'y = 2']), ...block(['y = 2'], ['y = 3'])));
    const f = p.files[0]!;
    assert.deepEqual([f.operation, f.oldPath, f.newPath], ['create', null, 'new/mod.py']);
    assert.deepEqual(f.hunks.map(body), [
      ['+x = 1', '+y = 2'],
      ['-y = 2', '+y = 3'],
    ]);
  });

  test('an empty SEARCH after other blocks of the file appends at its end', () => {
    const p = parseOk(text('a.txt', ...block(['x'], ['y']), ...block([''], ['tail'])));
    const f = p.files[0]!;
    assert.equal(f.operation, 'modify');
    assert.deepEqual([body(f.hunks[1]), f.hunks[1]!.atEndOfFile], [['+tail'], true]);
    assert.ok(hasWarning(p, 'appending'));
  });

  test('Cline variant markers', () => {
    const p = parseOk(text('src/x.ts', '------- SEARCH', 'old', '=======', 'new', '+++++++ REPLACE'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-old', '+new']);
  });

  test('block text is literal: fences, diff-like and marker-like lines inside are content', () => {
    const p = parseOk(
      text('README.md', ...block(['```sh', '--- a/x', '+++ b/x', '*** Update File: y'], ['```bash', '--- a/x', '+++ b/x', '*** Update File: y'])),
    );
    assert.equal(p.format, 'search_replace');
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-```sh', '+```bash', ' --- a/x', ' +++ b/x', ' *** Update File: y']);
  });

  test('CRLF and trailing whitespace', () => {
    const p = parseOk(['f.txt', '<<<<<<< SEARCH', 'a  ', '=======', 'b\t', '>>>>>>> REPLACE', ''].join('\r\n'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a  ', '+b\t']);
  });

  test('identical SEARCH and REPLACE warns that the block changes nothing', () => {
    const p = parseOk(text('f.txt', ...block(['a'], ['a'])));
    assert.ok(hasWarning(p, 'changes nothing'));
  });

  test('a six-= divider is accepted with a warning when no exact one comes', () => {
    const p = parseOk(text('f.txt', '<<<<<<< SEARCH', 'a', '======', 'b', '>>>>>>> REPLACE'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
    assert.ok(hasWarning(p, 'read as the `=======` divider'));
  });

  test('prose sentences are not taken for paths', () => {
    const e = parseErr(text('Here is the change to the function:', ...block(['a'], ['b'])));
    assert.match(e.message, /SEARCH\/REPLACE block has no file path/);
    assert.equal(e.line, 2);
  });

  test('errors: missing divider, missing REPLACE, stray REPLACE, nested SEARCH', () => {
    const cases: Array<[string, RegExp, number]> = [
      [
        text('f.txt', '<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE'),
        /block started at line 2 has no `=======` line: expected `=======` before `>>>>>>> REPLACE`/,
        4,
      ],
      [text('f.txt', '<<<<<<< SEARCH', 'a'), /block started at line 2 has no `=======` line.*found the end of the text/, 2],
      [
        text('f.txt', '<<<<<<< SEARCH', 'a', '=======', 'b', '```'),
        /block started at line 2 is not closed: expected `>>>>>>> REPLACE`, found the end of the text; the fence at line 6/,
        2,
      ],
      [
        text('f.txt', '<<<<<<< SEARCH', 'a', '=======', 'b', '<<<<<<< SEARCH', 'c', '=======', 'd', '>>>>>>> REPLACE'),
        /block started at line 2 is not closed: expected `>>>>>>> REPLACE` before `<<<<<<< SEARCH`/,
        6,
      ],
      [text('f.txt', '>>>>>>> REPLACE'), /`>>>>>>> REPLACE` without a `<<<<<<< SEARCH` line before it/, 2],
    ];
    for (const [input, message, line] of cases) {
      const e = parseErr(input);
      assert.match(e.message, message);
      assert.equal(e.line, line, e.message);
    }
  });
});
