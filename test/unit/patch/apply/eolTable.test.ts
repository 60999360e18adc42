import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PatchManager } from '../../../../src/core/patch/patchManager';
import { NodeWorkspaceFs } from '../../../../src/host/node/nodeWorkspaceFs';
import { gitDiff } from './gitDiff';

/**
 * Line endings as a class: patches whose endings say nothing (every line LF, every line CRLF) or
 * everything (git's bytes), against CRLF, LF, tied and mixed files, for replacements, insertions,
 * deletions, appends, final-newline changes and a BOM. Each row asserts the bytes written to disk
 * and how the hunk was reported: `certain` (exact, 1.00, no note), `inferred` (a note, never
 * 1.00), or refused with the file untouched.
 */

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

type Style = 'lf' | 'crlf';
type Expect = { bytes: string; report: 'certain' | 'inferred' } | { refused: RegExp };

interface Row {
  name: string;
  file: string;
  /** The hunk body with LF endings; `style` decides the endings of the whole patch text. */
  patch: string;
  style: Style;
  expect: Expect;
}

const CRLF = 'a\r\nb\r\nc\r\nd\r\n';
const LF = 'a\nb\nc\nd\n';
/** Two CRLF lines then two LF lines: a tie. */
const TIE_BLOCK = 'a\r\nb\r\nc\nd\n';
/** Alternating CRLF, LF: a tie where every pair of neighbours differs. */
const TIE_ALT = 'a\r\nb\nc\r\nd\n';
/** Three CRLF, one LF (the first line). */
const MOSTLY_CRLF = 'a\nb\r\nc\r\nd\r\n';

const REPLACE_B = '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n';
const INSERT_AFTER_A = '@@ -1,2 +1,3 @@\n a\n+X\n b\n';
const DELETE_B = '@@ -1,3 +1,2 @@\n a\n-b\n c\n';
const APPEND_AFTER_D = '@@ -3,2 +3,3 @@\n c\n d\n+E\n';
const REPLACE_BC = '@@ -1,4 +1,4 @@\n a\n-b\n-c\n+B\n+C\n d\n';
const REPLACE_BC_BY_3 = '@@ -1,4 +1,5 @@\n a\n-b\n-c\n+B\n+C\n+Z\n d\n';

const certain = (bytes: string): Expect => ({ bytes, report: 'certain' });
const inferred = (bytes: string): Expect => ({ bytes, report: 'inferred' });
const refusedForEndings: Expect = { refused: /cannot tell which line ending/ };

const rows: Row[] = [
  // One kind of ending in the file: its convention is certain, whatever the patch's endings.
  { name: 'CRLF file, LF patch, replace', file: CRLF, patch: REPLACE_B, style: 'lf', expect: certain('a\r\nB\r\nc\r\nd\r\n') },
  { name: 'CRLF file, CRLF patch, replace', file: CRLF, patch: REPLACE_B, style: 'crlf', expect: certain('a\r\nB\r\nc\r\nd\r\n') },
  { name: 'LF file, CRLF patch, replace', file: LF, patch: REPLACE_B, style: 'crlf', expect: certain('a\nB\nc\nd\n') },
  { name: 'LF file, CRLF patch, insert', file: LF, patch: INSERT_AFTER_A, style: 'crlf', expect: certain('a\nX\nb\nc\nd\n') },
  { name: 'CRLF file, LF patch, append', file: CRLF, patch: APPEND_AFTER_D, style: 'lf', expect: certain('a\r\nb\r\nc\r\nd\r\nE\r\n') },
  { name: 'CRLF file, LF patch, delete', file: CRLF, patch: DELETE_B, style: 'lf', expect: certain('a\r\nc\r\nd\r\n') },
  // A tie: the replaced lines decide, not the patch and not a default.
  { name: 'tied file, CRLF patch, replace a CRLF line', file: TIE_BLOCK, patch: REPLACE_B, style: 'crlf', expect: inferred('a\r\nB\r\nc\nd\n') },
  { name: 'tied file, LF patch, replace a CRLF line', file: TIE_BLOCK, patch: REPLACE_B, style: 'lf', expect: inferred('a\r\nB\r\nc\nd\n') },
  { name: 'tied file, CRLF patch, replace an LF line', file: TIE_ALT, patch: REPLACE_B, style: 'crlf', expect: inferred('a\r\nB\nc\r\nd\n') },
  {
    name: 'tied file, replaced lines differ, counts match: line for line',
    file: TIE_ALT,
    patch: REPLACE_BC,
    style: 'crlf',
    expect: inferred('a\r\nB\nC\r\nd\n'),
  },
  // Pure insertions: the neighbouring lines decide; when they differ on a tie, nothing does.
  {
    name: 'tied file, CRLF patch, insert between two CRLF lines',
    file: TIE_BLOCK,
    patch: INSERT_AFTER_A,
    style: 'crlf',
    expect: inferred('a\r\nX\r\nb\r\nc\nd\n'),
  },
  { name: 'tied file, CRLF patch, insert between CRLF and LF', file: TIE_ALT, patch: INSERT_AFTER_A, style: 'crlf', expect: refusedForEndings },
  { name: 'tied file, LF patch, insert between CRLF and LF', file: TIE_ALT, patch: INSERT_AFTER_A, style: 'lf', expect: refusedForEndings },
  {
    name: 'tied file, replaced lines differ and counts do not, neighbours differ',
    file: TIE_ALT,
    patch: REPLACE_BC_BY_3,
    style: 'lf',
    expect: refusedForEndings,
  },
  { name: 'tied file, append after the LF last line', file: TIE_BLOCK, patch: APPEND_AFTER_D, style: 'crlf', expect: inferred('a\r\nb\r\nc\nd\nE\n') },
  {
    name: 'mostly CRLF file, insert between LF and CRLF: the clear majority',
    file: MOSTLY_CRLF,
    patch: INSERT_AFTER_A,
    style: 'lf',
    expect: inferred('a\nX\r\nb\r\nc\r\nd\r\n'),
  },
  // No new line: nothing to decide, so it stays certain even in a tied file.
  { name: 'tied file, CRLF patch, delete', file: TIE_BLOCK, patch: DELETE_B, style: 'crlf', expect: certain('a\r\nc\nd\n') },
  // Final newline and BOM.
  {
    name: 'tied file without final newline, append after its last line',
    file: 'a\r\nb\nc',
    patch: '@@ -2,2 +2,3 @@\n b\n c\n+E\n\\ No newline at end of file\n',
    style: 'crlf',
    expect: inferred('a\r\nb\nc\nE'),
  },
  {
    name: 'tied file without final newline, the patch adds it',
    file: 'a\r\nb\nc',
    patch: '@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+c\n',
    style: 'lf',
    expect: inferred('a\r\nb\nc\n'),
  },
  {
    name: 'CRLF file, the patch drops the final newline',
    file: CRLF,
    patch: '@@ -3,2 +3,2 @@\n c\n-d\n+d\n\\ No newline at end of file\n',
    style: 'lf',
    expect: certain('a\r\nb\r\nc\r\nd'),
  },
  {
    name: 'CRLF file without final newline, append',
    file: 'a\r\nb\r\nc',
    patch: '@@ -2,2 +2,3 @@\n b\n c\n+E\n',
    style: 'lf',
    expect: certain('a\r\nb\r\nc\r\nE'),
  },
  { name: 'BOM, tied file, CRLF patch, replace', file: '\uFEFF' + TIE_BLOCK, patch: REPLACE_B, style: 'crlf', expect: inferred('\uFEFFa\r\nB\r\nc\nd\n') },
  { name: 'BOM, CRLF file, LF patch, insert', file: '\uFEFF' + CRLF, patch: INSERT_AFTER_A, style: 'lf', expect: certain('\uFEFFa\r\nX\r\nb\r\nc\r\nd\r\n') },
];

function workspace(file: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-eol-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'f.txt'), file);
  return dir;
}

function patchText(row: Row): string {
  const text = `--- a/f.txt\n+++ b/f.txt\n${row.patch}`;
  return row.style === 'crlf' ? text.replace(/\n/g, '\r\n') : text;
}

describe('line endings a patch does not state: written bytes and report, as a table', () => {
  for (const row of rows) {
    test(row.name, async () => {
      const dir = workspace(row.file);
      const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).apply(patchText(row));
      const written = readFileSync(path.join(dir, 'f.txt'), 'utf8');
      if ('refused' in row.expect) {
        assert.equal(r.ok, false, `applied: ${JSON.stringify(written)}`);
        assert.match(r.error ?? '', row.expect.refused);
        assert.equal(written, row.file, 'a refused patch leaves the file as it was');
        return;
      }
      assert.equal(r.ok, true, r.error);
      assert.equal(JSON.stringify(written), JSON.stringify(row.expect.bytes));
      for (const h of r.files[0]!.hunks) {
        if (row.expect.report === 'certain') {
          assert.equal(h.confidence, 1, JSON.stringify(h));
          assert.doesNotMatch(h.note ?? '', /line endings/);
        } else {
          assert.ok(h.confidence! < 1, `a guessed ending is not reported exact: ${JSON.stringify(h)}`);
          assert.match(h.note ?? '', /line endings inferred/);
        }
      }
    });
  }
});

describe("line endings a patch does state (git's bytes): kept and reported exact", () => {
  const pairs: [string, string][] = [
    ['a\r\nb\nc\r\nd\n', 'a\r\nX\r\nb\nc\r\nd\n'],
    ['a\r\nb\nc\r\nd\n', 'a\r\nX\nb\nc\r\nd\n'],
    ['a\r\nb\r\nc\nd\n', 'a\r\nB\nc\nd\n'],
    ['\uFEFFa\r\nb\nc\r\nd\n', '\uFEFFa\r\nb\nY\r\nc\r\nd\n'],
    // The diff quotes the BOM as the first bytes of line 1: it is matched and kept there, once.
    ['\uFEFFa\r\nb\nc\r\n', '\uFEFFA\r\nb\nc\r\n'],
    ['\uFEFFa\nb\n', 'Z\n\uFEFFa\nb\n'],
  ];
  for (const [before, afterText] of pairs) {
    test(JSON.stringify(before) + ' -> ' + JSON.stringify(afterText), async () => {
      const dir = workspace(before);
      const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).apply(gitDiff(before, afterText, 1));
      assert.equal(r.ok, true, r.error);
      assert.equal(JSON.stringify(readFileSync(path.join(dir, 'f.txt'), 'utf8')), JSON.stringify(afterText));
      for (const h of r.files[0]!.hunks) assert.equal(h.confidence, 1, JSON.stringify(h));
    });
  }
});

describe('line endings of a file the patch creates', () => {
  const cases: { name: string; patch: string; bytes: string; report: 'certain' | 'inferred' }[] = [
    {
      name: "git's bytes of a new CRLF file are kept",
      patch: '--- /dev/null\n+++ b/g.txt\n@@ -0,0 +1,2 @@\n+x\r\n+y\r\n',
      bytes: 'x\r\ny\r\n',
      report: 'certain',
    },
    {
      name: 'a mixed new file without final newline',
      patch: '--- /dev/null\n+++ b/g.txt\n@@ -0,0 +1,2 @@\n+x\r\n+y\n\\ No newline at end of file\n',
      bytes: 'x\r\ny',
      report: 'certain',
    },
    { name: 'an LF patch writes LF', patch: '--- /dev/null\n+++ b/g.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n', bytes: 'x\ny\n', report: 'certain' },
    {
      name: 'a CRLF-throughout patch writes LF and says it guessed',
      patch: '--- /dev/null\r\n+++ b/g.txt\r\n@@ -0,0 +1,2 @@\r\n+x\r\n+y\r\n',
      bytes: 'x\ny\n',
      report: 'inferred',
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'pp-eol-new-'));
      dirs.push(dir);
      const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).apply(c.patch);
      assert.equal(r.ok, true, r.error);
      assert.equal(JSON.stringify(readFileSync(path.join(dir, 'g.txt'), 'utf8')), JSON.stringify(c.bytes));
      const h = r.files[0]!.hunks[0]!;
      if (c.report === 'certain') assert.equal(h.confidence, 1, JSON.stringify(h));
      else {
        assert.ok(h.confidence! < 1, JSON.stringify(h));
        assert.match(h.note ?? '', /line endings inferred/);
      }
    });
  }
});
