// The one confined write path (write_file, the PatchManager, NodeWorkspaceFs): several files all or
// nothing, never through a link swapped in after the check, and a failure puts back exactly what
// was there: bytes, modes, links, no temp files or new folders left.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, renameSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { commitConfined, confinePath, ConfinementError, nodeIo, type AtomicIo } from '../../../../src/core/policy/path';
import { NodeWorkspaceFs } from '../../../../src/host/node/nodeWorkspaceFs';
import { makeFixture, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => (fx = makeFixture()));
afterEach(() => fx.cleanup());

const tree = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? [`${e.name}/`, ...tree(path.join(dir, e.name)).map((x) => `${e.name}/${x}`)] : [e.name]))
    .sort();

describe('commitConfined', () => {
  test('writes, creates folders, deletes; an existing file keeps its mode, a new one gets the umask', async () => {
    fx.file('bin/run.sh', '#!/bin/sh\n');
    chmodSync(path.join(fx.ws, 'bin/run.sh'), 0o755);
    fx.file('old.txt', 'bye');
    await commitConfined(
      fx.ws,
      [
        { kind: 'write', path: 'bin/run.sh', content: '#!/bin/sh\necho hi\n' },
        { kind: 'write', path: 'new/deep/n.txt', content: 'n' },
        { kind: 'delete', path: 'old.txt' },
      ],
      { mkdirs: true },
    );
    assert.equal(statSync(path.join(fx.ws, 'bin/run.sh')).mode & 0o777, 0o755);
    assert.equal(statSync(path.join(fx.ws, 'new/deep/n.txt')).mode & 0o777, 0o666 & ~process.umask());
    assert.equal(existsSync(path.join(fx.ws, 'old.txt')), false);
    assert.ok(!tree(fx.ws).some((n) => n.includes('.tmp-')), 'no temp files left');
  });

  test('a failure on the last swap restores every file, a replaced link as a link, and removes new folders', async () => {
    fx.file('a.txt', 'A');
    chmodSync(path.join(fx.ws, 'a.txt'), 0o600);
    fx.file('b.txt', 'B');
    symlinkSync('b.txt', path.join(fx.ws, 'link'));
    const before = tree(fx.ws);
    let renames = 0;
    const io: AtomicIo = {
      ...nodeIo,
      rename: (from, to) => {
        if (++renames === 4) throw new Error('ENOSPC (injected)');
        return nodeIo.rename(from, to);
      },
    };
    await assert.rejects(
      commitConfined(
        fx.ws,
        [
          { kind: 'write', path: 'a.txt', content: 'changed' },
          { kind: 'write', path: 'link', content: 'replaces the link' },
          { kind: 'write', path: 'made/x.txt', content: 'x' },
          { kind: 'write', path: 'b.txt', content: 'never' },
        ],
        { mkdirs: true, io },
      ),
      /ENOSPC \(injected\).*every file was restored/,
    );
    assert.deepEqual(tree(fx.ws), before);
    assert.equal(readFileSync(path.join(fx.ws, 'a.txt'), 'utf8'), 'A');
    assert.equal(statSync(path.join(fx.ws, 'a.txt')).mode & 0o777, 0o600);
    assert.equal(lstatSync(path.join(fx.ws, 'link')).isSymbolicLink(), true);
    assert.equal(readlinkSync(path.join(fx.ws, 'link')), 'b.txt');
  });

  test('a folder swapped for a link to the outside between the check and the commit: refused, nothing written anywhere', async () => {
    fx.file('dir/f.txt', 'inside');
    fx.file('other.txt', 'keep');
    const checked = await confinePath(fx.ws, 'dir/f.txt');
    assert.ok(checked.ok);
    renameSync(path.join(fx.ws, 'dir'), path.join(fx.ws, 'dir-old'));
    symlinkSync(fx.outside, path.join(fx.ws, 'dir'));
    await assert.rejects(
      commitConfined(fx.ws, [
        { kind: 'write', path: 'other.txt', content: 'changed' },
        { kind: 'write', path: checked.real, content: 'pwned' },
      ]),
      ConfinementError,
    );
    assert.equal(readFileSync(path.join(fx.ws, 'other.txt'), 'utf8'), 'keep');
    assert.deepEqual(readdirSync(fx.outside).sort(), ['aws', 'id_rsa']);
  });

  test('a directory is never replaced or deleted by a file change; a missing file cannot be deleted', async () => {
    fx.file('d/x', 'x');
    await assert.rejects(commitConfined(fx.ws, [{ kind: 'write', path: 'd', content: 'file' }]), /is a directory/);
    await assert.rejects(commitConfined(fx.ws, [{ kind: 'delete', path: 'd' }]), /is a directory/);
    await assert.rejects(commitConfined(fx.ws, [{ kind: 'delete', path: 'nope' }]), /does not exist/);
    assert.equal(readFileSync(path.join(fx.ws, 'd/x'), 'utf8'), 'x');
  });
});

describe('confinePath and NodeWorkspaceFs share the walk checkPath judges', () => {
  test('outside, through a link that leads out, through a dangling link, absolute: refused with the reason', async () => {
    symlinkSync(fx.outside, path.join(fx.ws, 'out'));
    symlinkSync(path.join(fx.ws, 'nowhere'), path.join(fx.ws, 'dangling'));
    const reasons = await Promise.all(
      ['../x', 'out/id_rsa', 'dangling', '/etc/passwd', ''].map(async (p) => {
        const c = await confinePath(fx.ws, p);
        return c.ok ? 'ok' : c.reason;
      }),
    );
    assert.match(reasons[0]!, /outside the workspace/);
    assert.match(reasons[1]!, /through a symbolic link to .*outside the workspace/);
    assert.match(reasons[2]!, /dangling symbolic link/);
    assert.match(reasons[3]!, /absolute path/);
    assert.match(reasons[4]!, /empty/);
  });

  test('NodeWorkspaceFs.writeFile takes the same commit: creates folders, leaves no temp, refuses a link that leads out', async () => {
    const ws = new NodeWorkspaceFs(fx.ws);
    await ws.writeFile('a/b/c.txt', 'hello');
    assert.equal(readFileSync(path.join(fx.ws, 'a/b/c.txt'), 'utf8'), 'hello');
    assert.deepEqual(tree(path.join(fx.ws, 'a')), ['b/', 'b/c.txt']);
    symlinkSync(fx.outside, path.join(fx.ws, 'out'));
    await assert.rejects(ws.writeFile('out/id_rsa', 'pwned'), /outside the workspace/);
    assert.equal(readFileSync(path.join(fx.outside, 'id_rsa'), 'utf8'), 'PRIVATE KEY');
  });
});
