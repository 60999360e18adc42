import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PatchManager } from '../../../../src/core/patch/patchManager';
import { NodeWorkspaceFs } from '../../../../src/host/node/nodeWorkspaceFs';
import { nodeIo, type AtomicIo } from '../../../../src/core/policy/path/confinedCommit';
import type { FilePatch } from '../../../../src/core/patch/types';
import { hunk, modify, patch } from './helpers';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-mgr-'));
  dirs.push(dir);
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), t);
  }
  return dir;
}

/** Every file under dir with its bytes, to prove nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = st.isSymbolicLink() ? '-> link' : readFileSync(full, 'latin1') + `|mode ${st.mode & 0o777}`;
    }
  };
  walk(dir);
  return out;
}

const op = (o: Partial<FilePatch>): FilePatch => ({ operation: 'modify', oldPath: null, newPath: null, hunks: [], patchLine: 1, ...o });
const twoFiles = () =>
  patch(
    modify('a.txt', [hunk([' a', '-b', '+B'])]),
    op({ operation: 'create', newPath: 'sub/new.txt', hunks: [hunk(['+n'])] }),
    modify('c.txt', [hunk([' c', '-d', '+D'])]),
    op({ operation: 'delete', oldPath: 'gone.txt' }),
  );
const twoFilesWs = () => workspace({ 'a.txt': 'a\nb\n', 'c.txt': 'c\nd\n', 'gone.txt': 'g\n' });

describe('PatchManager on a real folder', () => {
  test('applies, keeps the executable bit, creates folders, deletes', async () => {
    const dir = twoFilesWs();
    chmodSync(path.join(dir, 'a.txt'), 0o755);
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).applyParsed(twoFiles());
    assert.equal(r.ok, true, r.error);
    assert.equal(readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\nB\n');
    assert.equal(statSync(path.join(dir, 'a.txt')).mode & 0o777, 0o755);
    assert.equal(readFileSync(path.join(dir, 'sub/new.txt'), 'utf8'), 'n\n');
    assert.equal(existsSync(path.join(dir, 'gone.txt')), false);
    assert.equal(r.files[0]!.hunks[0]!.status, 'applied');
    assert.match(r.reversePatch, /old mode|a\/a\.txt/);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('patchpilot')),
      [],
    );
  });

  test('a BOM and CRLF endings survive the disk round trip byte for byte', async () => {
    const dir = workspace({ 'w.txt': '\uFEFFa\r\nb\r\n' });
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).applyParsed(patch(modify('w.txt', [hunk([' a', '-b', '+c'])])));
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(readFileSync(path.join(dir, 'w.txt')), Buffer.from('\uFEFFa\r\nc\r\n', 'utf8'));
  });

  test('dry run writes nothing', async () => {
    const dir = twoFilesWs();
    const before = snapshot(dir);
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).applyParsed(twoFiles(), { dryRun: true });
    assert.equal(r.ok, true);
    assert.equal(r.files[0]!.hunks[0]!.status, 'would-apply');
    assert.deepEqual(snapshot(dir), before);
  });

  test('a refused patch writes nothing', async () => {
    const dir = twoFilesWs();
    const before = snapshot(dir);
    const bad = patch(modify('a.txt', [hunk([' a', '-b', '+B'])]), modify('c.txt', [hunk([' c', '-nope', '+D'])]));
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).applyParsed(bad);
    assert.equal(r.ok, false);
    assert.deepEqual(snapshot(dir), before);
  });

  test('a failure in the middle of the swap rolls every file back', async () => {
    const dir = twoFilesWs();
    const before = snapshot(dir);
    let renames = 0;
    const io: AtomicIo = {
      ...nodeIo,
      rename: async (a, b) => {
        if (++renames === 2) throw new Error('disk full (injected)');
        return nodeIo.rename(a, b);
      },
    };
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir, io) }).applyParsed(twoFiles());
    assert.equal(r.ok, false);
    assert.match(r.error!, /injected.*every file was restored/);
    assert.equal(r.reversePatch, '');
    assert.deepEqual(snapshot(dir), before);
  });

  test('a failure while preparing the temp files leaves no file, temp or folder behind', async () => {
    const dir = twoFilesWs();
    const before = snapshot(dir);
    let writes = 0;
    const io: AtomicIo = {
      ...nodeIo,
      writeTemp: async (f, d, m) => {
        if (++writes === 3) throw new Error('EACCES (injected)');
        return nodeIo.writeTemp(f, d, m);
      },
    };
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir, io) }).applyParsed(twoFiles());
    assert.equal(r.ok, false);
    assert.deepEqual(snapshot(dir), before);
    assert.equal(existsSync(path.join(dir, 'sub')), false);
  });

  test('a failure on the last step (a delete) restores the files already swapped', async () => {
    const dir = twoFilesWs();
    const before = snapshot(dir);
    const io: AtomicIo = { ...nodeIo, unlink: async () => Promise.reject(new Error('EPERM (injected)')) };
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir, io) }).applyParsed(twoFiles());
    assert.equal(r.ok, false);
    assert.deepEqual(snapshot(dir), before);
  });

  test(
    'a read-only target folder makes the whole patch fail with nothing changed',
    { skip: process.getuid?.() === 0 ? 'root ignores folder permissions' : false },
    async () => {
      const dir = workspace({ 'a.txt': 'a\nb\n', 'ro/c.txt': 'c\nd\n' });
      chmodSync(path.join(dir, 'ro'), 0o555);
      try {
        const before = snapshot(dir);
        const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).applyParsed(
          patch(modify('a.txt', [hunk([' a', '-b', '+B'])]), modify('ro/c.txt', [hunk([' c', '-d', '+D'])])),
        );
        assert.equal(r.ok, false);
        assert.deepEqual(snapshot(dir), before);
      } finally {
        chmodSync(path.join(dir, 'ro'), 0o755);
      }
    },
  );

  test('symlinks leading outside the workspace are refused, links inside are written through', async () => {
    const outside = workspace({ 'secret.txt': 'a\nb\n' });
    const dir = workspace({ 'in.txt': 'a\nb\n' });
    symlinkSync(outside, path.join(dir, 'linkdir'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'linkfile'));
    symlinkSync(path.join(dir, 'in.txt'), path.join(dir, 'inner'));
    const mgr = new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) });
    for (const p of ['linkdir/secret.txt', 'linkfile']) {
      const r = await mgr.applyParsed(patch(modify(p, [hunk([' a', '-b', '+PWNED'])])));
      assert.equal(r.ok, false, p);
      assert.match(r.error!, /outside the workspace/);
    }
    const created = await mgr.applyParsed(patch(op({ operation: 'create', newPath: 'linkdir/new.txt', hunks: [hunk(['+x'])] })));
    assert.equal(created.ok, false);
    assert.equal(existsSync(path.join(outside, 'new.txt')), false);
    assert.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'a\nb\n');
    const inner = await mgr.applyParsed(patch(modify('inner', [hunk([' a', '-b', '+B'])])));
    assert.equal(inner.ok, true, inner.error);
    assert.equal(lstatSync(path.join(dir, 'inner')).isSymbolicLink(), true);
    assert.equal(readFileSync(path.join(dir, 'in.txt'), 'utf8'), 'a\nB\n');
  });

  test('absolute and .. paths are refused', async () => {
    const dir = workspace({ 'a.txt': 'a\n' });
    for (const p of ['/etc/hostname', '../a.txt', 'x/../../a.txt']) {
      const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).applyParsed(patch(modify(p, [hunk(['-a', '+b'])])));
      assert.equal(r.ok, false, p);
    }
  });

  test('binary and non-UTF-8 files are refused untouched', async () => {
    const dir = workspace({});
    writeFileSync(path.join(dir, 'bin'), Buffer.from([1, 0, 2, 10]));
    writeFileSync(path.join(dir, 'latin1.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    const mgr = new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) });
    assert.match((await mgr.applyParsed(patch(modify('bin', [hunk(['-a', '+b'])])))).error!, /binary file/);
    assert.match((await mgr.applyParsed(patch(modify('latin1.txt', [hunk(['-caf', '+b'])])))).error!, /not valid UTF-8/);
  });

  test('rename on disk moves the file and keeps its mode', async () => {
    const dir = workspace({ 'old.sh': '#!/bin/sh\necho hi\n' });
    chmodSync(path.join(dir, 'old.sh'), 0o755);
    const r = await new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) }).applyParsed(
      patch(op({ operation: 'rename', oldPath: 'old.sh', newPath: 'bin/new.sh', hunks: [hunk([' #!/bin/sh', '-echo hi', '+echo bye'])] })),
    );
    assert.equal(r.ok, true, r.error);
    assert.equal(existsSync(path.join(dir, 'old.sh')), false);
    assert.equal(readFileSync(path.join(dir, 'bin/new.sh'), 'utf8'), '#!/bin/sh\necho bye\n');
    assert.equal(statSync(path.join(dir, 'bin/new.sh')).mode & 0o777, 0o755);
    assert.match(r.reversePatch, /100755|rename from bin\/new\.sh/);
  });
});
