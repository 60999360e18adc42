import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatch } from '../../../../src/core/patch/parse';
import { text } from './helpers';
import { seededRandom } from '../../../support/seededRandom';

const SAMPLES = [
  text(
    'Here:',
    '```diff',
    'diff --git a/src/a.ts b/src/a.ts',
    'index 1..2 100644',
    '--- a/src/a.ts',
    '+++ b/src/a.ts',
    '@@ -1,3 +1,3 @@ fn',
    ' x',
    '-y',
    '+z',
    '\\ No newline at end of file',
    '```',
  ),
  text(
    'diff --git "a/q\\303\\251" "b/r"',
    'similarity index 90%',
    'rename from "q\\303\\251"',
    'rename to r',
    '--- /dev/null',
    '+++ b/n',
    '@@ -0,0 +1 @@',
    '+n',
    'Binary files a/i and b/i differ',
    'GIT binary patch',
    'literal 1',
    'x',
  ),
  text(
    '*** Begin Patch',
    '*** Update File: a.py',
    '*** Move to: b.py',
    '@@ class A',
    '@@ def f():',
    ' a',
    '-b',
    '+c',
    '*** End of File',
    '*** Add File: n.txt',
    '+x',
    '*** Delete File: d.txt',
    '*** End Patch',
  ),
  text(
    '**src/x.py**',
    '```python',
    '<<<<<<< SEARCH',
    'a',
    'b',
    '=======',
    'a',
    'c',
    '>>>>>>> REPLACE',
    '```',
    '<<<<<<< SEARCH',
    '=======',
    'new',
    '>>>>>>> REPLACE',
    'y.ts',
    '------- SEARCH',
    'q',
    '=======',
    'r',
    '+++++++ REPLACE',
  ),
];

const ALPHABET = [
  '@',
  '@@',
  '-',
  '---',
  '+',
  '+++',
  ' ',
  '\n',
  '\r\n',
  '\r',
  '`',
  '```',
  '*',
  '*** ',
  '<',
  '<<<<<<< SEARCH',
  '=======',
  '>>>>>>> REPLACE',
  '"',
  '\\',
  '\\303',
  'a/',
  'b/',
  '/dev/null',
  'diff --git ',
  'x',
  '1',
  ',',
  '\t',
  'é',
  '\u0000',
  'Update File: ',
  'End Patch',
  'copy from ',
  'rename to ',
];

/** Structural checks that must hold for any Result the parser returns. */
function checkResult(input: string, seed: number): void {
  let r: ReturnType<typeof parsePatch>;
  try {
    r = parsePatch(input);
  } catch (e) {
    assert.fail(`seed ${seed}: parsePatch threw ${String(e)} for ${JSON.stringify(input)}`);
  }
  const lineCount = input.split(/\r\n|\n|\r/).length;
  if (!r.ok) {
    assert.equal(typeof r.error.message, 'string');
    assert.ok(r.error.message.length > 0);
    assert.ok(!r.error.message.includes('failed unexpectedly'), `seed ${seed}: internal error ${r.error.message} for ${JSON.stringify(input)}`);
    if (r.error.line !== undefined) assert.ok(r.error.line >= 1 && r.error.line <= lineCount, `seed ${seed}: line ${r.error.line} of ${lineCount}`);
    return;
  }
  assert.ok(r.value.files.length > 0);
  for (const f of r.value.files) {
    assert.ok(f.patchLine >= 1 && f.patchLine <= lineCount, `seed ${seed}: file patchLine ${f.patchLine}`);
    assert.ok(f.oldPath !== null || f.newPath !== null);
    f.hunks.forEach((h, i) => {
      assert.equal(h.index, i, `seed ${seed}: hunk index`);
      assert.ok(h.patchLine >= 1 && h.patchLine <= lineCount, `seed ${seed}: hunk patchLine ${h.patchLine}`);
      for (const l of h.lines) {
        assert.ok(!l.text.includes('\n'), `seed ${seed}: newline in line text`);
        assert.ok(l.kind === 'context' || l.kind === 'add' || l.kind === 'remove');
      }
    });
    if (f.operation === 'create') assert.equal(f.oldPath, null);
    if (f.operation === 'delete') assert.equal(f.newPath, null);
  }
}

describe('fuzz: never throws, always a well-formed Result', () => {
  test('random strings from a patch-flavoured alphabet', () => {
    for (let seed = 1; seed <= 1500; seed++) {
      const rand = seededRandom(seed);
      const parts: string[] = [];
      const length = Math.floor(rand() * 60);
      for (let i = 0; i < length; i++) parts.push(ALPHABET[Math.floor(rand() * ALPHABET.length)]!);
      checkResult(parts.join(''), seed);
    }
  });

  test('random truncations of valid patches', () => {
    for (const [n, sample] of SAMPLES.entries()) {
      assert.ok(parsePatch(sample).ok, `sample ${n} parses whole`);
      for (let cut = 0; cut <= sample.length; cut++) checkResult(sample.slice(0, cut), n * 100000 + cut);
    }
  });

  test('random line shuffles, drops and duplicates of valid patches', () => {
    for (let seed = 1; seed <= 800; seed++) {
      const rand = seededRandom(seed);
      const lines = SAMPLES[seed % SAMPLES.length]!.split('\n');
      const ops = 1 + Math.floor(rand() * 4);
      for (let k = 0; k < ops; k++) {
        const i = Math.floor(rand() * lines.length);
        const j = Math.floor(rand() * lines.length);
        const op = rand();
        if (op < 0.4) [lines[i], lines[j]] = [lines[j]!, lines[i]!];
        else if (op < 0.7) lines.splice(i, 1);
        else lines.splice(i, 0, lines[j]!);
      }
      checkResult(lines.join(rand() < 0.2 ? '\r\n' : '\n'), seed);
    }
  });

  test('combined samples (mixed formats) parse to one format without throwing', () => {
    for (let a = 0; a < SAMPLES.length; a++) {
      for (let b = 0; b < SAMPLES.length; b++) checkResult(SAMPLES[a]! + 'prose\n' + SAMPLES[b]!, a * 10 + b);
    }
  });
});

describe('scale', () => {
  test('a 50,000-line unified diff parses completely', () => {
    const lines: string[] = [];
    for (let f = 0; f < 500; f++) {
      lines.push(`diff --git a/dir/file${f}.ts b/dir/file${f}.ts`, `--- a/dir/file${f}.ts`, `+++ b/dir/file${f}.ts`);
      for (let h = 0; h < 8; h++) {
        lines.push(`@@ -${h * 20 + 1},5 +${h * 20 + 1},5 @@`, ' keep();', ' keep();', `-old(${h});`, `+new(${h});`, ' keep();', ' keep();');
      }
      lines.push('');
    }
    while (lines.length < 50000) lines.push('trailing prose line');
    const r = parsePatch(lines.join('\n'));
    assert.ok(r.ok);
    assert.equal(r.value.files.length, 500);
    assert.equal(
      r.value.files.reduce((n, f) => n + f.hunks.length, 0),
      4000,
    );
  });

  test('pathological lines (huge runs of one character) stay linear', () => {
    for (const ch of [' ', '@', '-', '+', '<', '=', '*', '"', '\\', '`', '#', '/']) {
      const long = ch.repeat(200_000);
      const r = parsePatch(`--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${long}\n+${long}\n${long}\n`);
      assert.equal(typeof r.ok, 'boolean');
      const s = parsePatch(`${long}\n<<<<<<< SEARCH\n${long}\n=======\n>>>>>>> REPLACE\n`);
      assert.equal(typeof s.ok, 'boolean');
    }
  });
});
