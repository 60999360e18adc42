import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../../src/core/patch/plan';

/** SEARCH/REPLACE blocks as aider, Cline and Roo Code apply them, end to end (text in, bytes out). */

const block = (path: string | null, search: string[], replace: string[]) =>
  [...(path ? [path] : []), '<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE'].join('\n');

function apply(files: Record<string, string>, ...blocks: string[]) {
  return applyPatchToTexts(blocks.join('\n\n') + '\n', new Map(Object.entries(files)));
}

function applied(files: Record<string, string>, ...blocks: string[]): Record<string, string | null> {
  const r = apply(files, ...blocks);
  assert.equal(r.ok, true, r.error);
  return Object.fromEntries(r.files.map((f) => [f.newPath ?? f.oldPath, f.newText ?? null]));
}

const js = [
  'function load(path) {',
  '  const raw = read(path);',
  '  return parse(raw);',
  '}',
  '',
  'function save(path, data) {',
  '  write(path, data);',
  '}',
  '',
].join('\n');

describe('SEARCH/REPLACE blocks apply in order, each to the text the blocks before it left', () => {
  test('a later SEARCH contains what an earlier REPLACE wrote', () => {
    const out = applied(
      { 'io.js': js },
      block('io.js', ['  const raw = read(path);'], ['  const raw = read(path, "utf8");']),
      block(
        'io.js',
        ['  const raw = read(path, "utf8");', '  return parse(raw);'],
        ['  const raw = read(path, "utf8");', '  if (!raw) return null;', '  return parse(raw);'],
      ),
    );
    assert.equal(
      out['io.js'],
      js.replace('read(path);', 'read(path, "utf8");').replace('  return parse(raw);', '  if (!raw) return null;\n  return parse(raw);'),
    );
  });

  test('a rename then a use of the new name, three blocks, one of them before the others in the file', () => {
    const out = applied(
      { 'io.js': js },
      block('io.js', ['function save(path, data) {'], ['function store(path, data) {']),
      block(null, ['function store(path, data) {', '  write(path, data);'], ['function store(path, data) {', '  ensureDir(path);', '  write(path, data);']),
      block(null, ['function load(path) {'], ['function load(path) {', '  log("load");']),
    );
    assert.equal(
      out['io.js'],
      js
        .replace('function save(path, data) {\n', 'function store(path, data) {\n  ensureDir(path);\n')
        .replace('function load(path) {\n', 'function load(path) {\n  log("load");\n'),
    );
  });

  test('a block whose SEARCH an earlier block removed is refused, saying blocks apply in order', () => {
    const r = apply(
      { 'io.js': js },
      block('io.js', ['  write(path, data);'], ['  writeAtomic(path, data);']),
      block('io.js', ['  write(path, data);'], ['  writeSync(path, data);']),
    );
    assert.equal(r.ok, false);
    assert.match(r.error!, /io\.js hunk #2.*not found in the file[\s\S]*blocks apply in order: it was searched in the text the 1 block\(s\) before it left/);
    assert.deepEqual(
      r.files[0]!.hunks.map((h) => h.status),
      ['would-apply', 'refused'],
    );
  });

  test('unified-diff hunks stay placed against the original', () => {
    const diff = [
      '--- a/io.js',
      '+++ b/io.js',
      '@@ -1,3 +1,3 @@',
      ' function load(path) {',
      '-  const raw = read(path);',
      '+  const raw = read(path, "utf8");',
      '   return parse(raw);',
      '@@ -2,2 +2,3 @@',
      '   const raw = read(path, "utf8");',
      '+  if (!raw) return null;',
      '   return parse(raw);',
      '',
    ].join('\n');
    const r = applyPatchToTexts(diff, new Map([['io.js', js]]));
    assert.equal(r.ok, false);
    assert.match(r.error!, /hunk #2.*not found/);
  });

  test('a file created by an empty SEARCH, then edited by the next block', () => {
    const out = applied({}, block('new.txt', [], ['alpha', 'beta']), block('new.txt', ['beta'], ['beta', 'gamma']));
    assert.equal(out['new.txt'], 'alpha\nbeta\ngamma\n');
  });

  test("Roo's :start_line: picks among equal places, moved by the lines earlier blocks added", () => {
    const src = ['x = 0', 'y = 0', 'w = 0', 'v = 0', 'x = 0', 'y = 0', ''].join('\n');
    const patch = [
      'f.py',
      '<<<<<<< SEARCH',
      ':start_line:1',
      '-------',
      'x = 0',
      '=======',
      'x = 0',
      'z = 9',
      '>>>>>>> REPLACE',
      '',
      '<<<<<<< SEARCH',
      ':start_line:5',
      '-------',
      'x = 0',
      '=======',
      'x = 1',
      '>>>>>>> REPLACE',
      '',
    ].join('\n');
    const r = applyPatchToTexts(patch, new Map([['f.py', src]]));
    assert.equal(r.ok, true, r.error);
    // The second block's hint (line 5) is line 6 once the first block added a line.
    assert.equal(r.files[0]!.newText, 'x = 0\nz = 9\ny = 0\nw = 0\nv = 0\nx = 1\ny = 0\n');
  });
});

describe('SEARCH/REPLACE edges the peers tolerate', () => {
  test('a SEARCH that starts (or ends) with a blank line the file does not have there', () => {
    const src = 'import a\ndef f():\n    return 1\n\ndef g():\n    return 2\n';
    const lead = applied({ 'm.py': src }, block('m.py', ['', 'def f():', '    return 1'], ['def f():', '    return 10']));
    assert.equal(lead['m.py'], src.replace('return 1\n', 'return 10\n'));
    const both = applied({ 'm.py': src }, block('m.py', ['', 'def g():', '    return 2', ''], ['', 'def g():', '    return 20', '']));
    assert.equal(both['m.py'], src.replace('return 2\n', 'return 20\n'));
  });

  test('the blank line is matched when the file has it', () => {
    const src = 'a\n\nb\nc\n';
    assert.equal(applied({ 't.txt': src }, block('t.txt', ['', 'b'], ['B']))['t.txt'], 'a\nB\nc\n');
  });

  test('an empty SEARCH on an existing empty file fills it', () => {
    assert.equal(applied({ 'empty.md': '' }, block('empty.md', [], ['# Title', '', 'text']))['empty.md'], '# Title\n\ntext\n');
  });

  test('an empty SEARCH on a file with content is refused with what to do', () => {
    const r = apply({ 'full.md': 'x\n' }, block('full.md', [], ['y']));
    assert.equal(r.ok, false);
    assert.match(r.error!, /full\.md: cannot create the file, it already exists with different content/);
  });

  test('numbered lines copied from a read (Roo), with a cut-off closing marker', () => {
    const src = 'a\nb\nc\nd\n';
    const patch = 't.txt\n<<<<<<< SEARCH\n2 | b\n3 | c\n=======\n2 | b\n3 | C\n';
    const r = applyPatchToTexts(patch, new Map([['t.txt', src]]));
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, 'a\nb\nC\nd\n');
  });
});
