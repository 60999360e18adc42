import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { applyParsedPatch } from '../../../../src/core/patch/plan';
import type { FilePatch, ParsedPatch } from '../../../../src/core/patch/types';
import { filesOf, hunk, modify, patch } from './helpers';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Writes the new state, `git apply`s the reverse patch, and checks every original byte is back. */
function roundTrip(original: Record<string, string>, parsed: ParsedPatch, accepted?: Set<string>) {
  const r = applyParsedPatch(parsed, filesOf(original), accepted ? { acceptedHunks: accepted } : {});
  assert.equal(r.ok, true, r.error);
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-rev-'));
  dirs.push(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const after = new Map(Object.entries(original));
  for (const [p, t] of r.finalTexts) t === null ? after.delete(p) : after.set(p, t);
  for (const [p, t] of after) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), t);
  }
  if (r.reversePatch) {
    writeFileSync(path.join(dir, '.reverse.patch'), r.reversePatch);
    execFileSync('git', ['apply', '--whitespace=nowarn', '.reverse.patch'], { cwd: dir });
  }
  for (const [p, t] of Object.entries(original)) assert.equal(readFileSync(path.join(dir, p), 'utf8'), t, `${p} restored`);
  for (const p of after.keys()) if (!(p in original)) assert.equal(existsSync(path.join(dir, p)), false, `${p} removed`);
  return r;
}

const op = (o: Partial<FilePatch>): FilePatch => ({ operation: 'modify', oldPath: null, newPath: null, hunks: [], patchLine: 1, ...o });

describe('reverse patch: git apply of it restores the original bytes', () => {
  test('modify with CRLF, BOM and no final newline', () => {
    roundTrip({ 'a.txt': '\uFEFFone\r\ntwo\r\nthree' }, patch(modify('a.txt', [hunk([' one', '-two', '+TWO', '+2', ' three'])])));
  });

  test('final newline removed by markers', () => {
    roundTrip({ 'a.txt': 'a\nb\n' }, patch(modify('a.txt', [hunk([' a', '-b', '+c'], { newNoNewlineAtEnd: true })])));
  });

  test('create, delete and rename in one patch', () => {
    const r = roundTrip(
      { 'old.txt': 'keep\nme\n', 'gone.txt': 'bye\n', 'dir/x.txt': 'x\n' },
      patch(
        op({ operation: 'create', newPath: 'new/deep/n.txt', hunks: [hunk(['+fresh', '+file'])] }),
        op({ operation: 'delete', oldPath: 'gone.txt' }),
        op({ operation: 'rename', oldPath: 'old.txt', newPath: 'moved.txt', hunks: [hunk([' keep', '-me', '+you'])] }),
      ),
    );
    assert.match(r.reversePatch, /rename from moved\.txt\nrename to old\.txt/);
    assert.match(r.reversePatch, /deleted file mode 100644/);
    assert.match(r.reversePatch, /new file mode 100644/);
  });

  test('per-hunk selection: only accepted hunks apply, the reverse covers just those', () => {
    const src = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const parsed = patch(modify('s.txt', [hunk([' a', '-b', '+B']), hunk([' e', '-f', '+F']), hunk([' i', '-j', '+J'])]));
    const r = roundTrip({ 's.txt': src }, parsed, new Set(['s.txt#1', 's.txt#3']));
    assert.deepEqual(
      r.files[0]!.hunks.map((h) => h.status),
      ['applied', 'rejected', 'applied'],
    );
    assert.equal(r.files[0]!.newText, 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\n');
    assert.doesNotMatch(r.reversePatch, /F/);
  });

  test('rejecting every hunk of a file changes nothing', () => {
    const r = applyParsedPatch(patch(modify('s.txt', [hunk([' a', '-b', '+B'])])), filesOf({ 's.txt': 'a\nb\n' }), { acceptedHunks: new Set() });
    assert.equal(r.ok, true);
    assert.equal(r.reversePatch, '');
    assert.equal(r.files[0]!.hunks[0]!.status, 'rejected');
  });

  test('dry run reports would-apply', () => {
    const r = applyParsedPatch(patch(modify('s.txt', [hunk([' a', '-b', '+B'])])), filesOf({ 's.txt': 'a\nb\n' }), { dryRun: true });
    assert.equal(r.dryRun, true);
    assert.equal(r.files[0]!.hunks[0]!.status, 'would-apply');
    assert.notEqual(r.reversePatch, '');
  });
});
