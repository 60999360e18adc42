import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Through the real CLI: a patch whose every line ends in CRLF, on a file with as many CRLF as LF
 * lines, used to be written with LF and reported "exact (1.00)". The new line now takes the ending
 * of the line it replaces and the report says the ending was inferred; an insertion between a CRLF
 * and an LF line of such a file is refused and the file is left as it was.
 */

const CLI = path.resolve('dist/cli.js');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function workspace(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-cli-eol-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'f.txt'), text);
  return dir;
}

function apply(dir: string, patch: string) {
  writeFileSync(path.join(dir, 'p.diff'), patch);
  const r = spawnSync(process.execPath, [CLI, 'patch', 'apply', 'p.diff'], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr, bytes: readFileSync(path.join(dir, 'f.txt'), 'utf8') };
}

const crlf = (s: string) => s.replace(/\n/g, '\r\n');

test('a CRLF-throughout patch on a tied file: the replaced line decides, and the report says so', () => {
  const dir = workspace('a\r\nb\r\nc\nd\n');
  const r = apply(dir, crlf('--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n'));
  assert.equal(r.code, 0, r.out);
  assert.equal(JSON.stringify(r.bytes), JSON.stringify('a\r\nB\r\nc\nd\n'));
  assert.doesNotMatch(r.out, /\(1\.00\)/);
  assert.match(r.out, /line endings inferred: CRLF/);
});

test('an insertion between a CRLF and an LF line of a tied file is refused and writes nothing', () => {
  const dir = workspace('a\r\nb\nc\r\nd\n');
  const r = apply(dir, crlf('--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n+X\n b\n'));
  assert.notEqual(r.code, 0);
  assert.match(r.out, /cannot tell which line ending/);
  assert.equal(r.bytes, 'a\r\nb\nc\r\nd\n');
});
