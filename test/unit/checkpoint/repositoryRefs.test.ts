import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, readFileSync, readlinkSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { planRestore, restore } from '../../../src/core/checkpoint';
import { hashBytes } from '../../../src/core/checkpoint/blobStore';
import { createCheckpointer } from '../../../src/core/session/checkpointWiring';
import { gitInit, tempWorkspace } from '../tools/helpers';
import { settingsWith } from '../../support/fakes';

const BINARY = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13, 10]);

function repository(files: Record<string, string>) {
  const ws = tempWorkspace(files);
  const abs = (rel: string) => path.join(ws.root, rel);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws.root, stdio: 'pipe' });
  const settings = settingsWith();
  const checkpointer = () => createCheckpointer(ws.root, { ...settings, checkpoints: { ...settings.checkpoints, enabled: true } })!;
  return { ws, abs, git, checkpointer };
}

/** The hashes of the bytes the store holds (a file's copy is named by the sha256 of its bytes). */
function stored(cp: ReturnType<ReturnType<typeof repository>['checkpointer']>): Set<string> {
  return new Set(cp.store.blobs.list().map((b) => b.hash));
}

describe("the repository's unchanged files are referenced, not copied", () => {
  test('the first checkpoint copies only what git does not hold; a step reads the rest back, and restores are exact', async () => {
    const { ws, abs, git, checkpointer } = repository({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'run.sh': '#!/bin/sh\necho run\n',
      'empty.txt': '',
      'edited.ts': 'committed\n',
    });
    try {
      writeFileSync(abs('blob.bin'), BINARY);
      chmodSync(abs('run.sh'), 0o755);
      symlinkSync('src/a.ts', abs('link'));
      gitInit(ws.root);
      writeFileSync(abs('edited.ts'), 'edited after the commit\n');
      writeFileSync(abs('untracked.ts'), 'not in git\n');
      const cp = checkpointer();
      try {
        const open = await cp.begin({ runId: 'r1', step: 1, tool: 'run_command', scope: 'workspace' });
        const blobs = stored(cp);
        assert.equal(blobs.has(hashBytes(Buffer.from('edited after the commit\n'))), true, 'an edited tracked file is copied');
        assert.equal(blobs.has(hashBytes(Buffer.from('not in git\n'))), true, 'an untracked file is copied');
        for (const bytes of ['export const a = 1;\n', '#!/bin/sh\necho run\n', 'src/a.ts'])
          assert.equal(blobs.has(hashBytes(Buffer.from(bytes))), false, bytes);
        assert.equal(blobs.has(hashBytes(BINARY)), false, 'a binary tracked file is not copied');

        // The step changes referenced files: edits, a deletion, a mode, a link replaced, a binary rewritten.
        writeFileSync(abs('src/a.ts'), 'export const a = 100;\n');
        unlinkSync(abs('src/b.ts'));
        chmodSync(abs('run.sh'), 0o644);
        unlinkSync(abs('link'));
        symlinkSync('src/b.ts', abs('link'));
        writeFileSync(abs('blob.bin'), 'text now\n');
        writeFileSync(abs('empty.txt'), 'not empty\n');
        const record = (await open!.end())!;
        assert.deepEqual(
          record.changes.map((c) => c.path),
          ['blob.bin', 'empty.txt', 'link', 'run.sh', 'src/a.ts', 'src/b.ts'],
        );
        for (const c of record.changes) assert.match(c.before!.hash, /^[0-9a-f]{64}$/, `${c.path}: a record names the store's bytes, never git's`);
        assert.equal(record.uncaptured, undefined);

        const plan = planRestore(cp.store, ws.root, 'r1', 1);
        assert.deepEqual(plan.blocked, []);
        assert.equal(restore(cp.store, ws.root, plan).ok, true);
        assert.equal(readFileSync(abs('src/a.ts'), 'utf8'), 'export const a = 1;\n');
        assert.equal(readFileSync(abs('src/b.ts'), 'utf8'), 'export const b = 2;\n');
        assert.equal(lstatSync(abs('run.sh')).mode & 0o777, 0o755);
        assert.equal(readlinkSync(abs('link')), 'src/a.ts');
        assert.deepEqual(readFileSync(abs('blob.bin')), BINARY);
        assert.equal(readFileSync(abs('empty.txt'), 'utf8'), '');
        assert.equal(git('status', '--porcelain').toString(), ' M edited.ts\n?? untracked.ts\n');
      } finally {
        cp.dispose();
      }
    } finally {
      ws.cleanup();
    }
  });

  test('a file the checkout converted (CRLF by .gitattributes) differs from its object: it is copied as it is on disk', async () => {
    const { ws, abs, git, checkpointer } = repository({ '.gitattributes': '*.txt text eol=crlf\n', 'notes.txt': 'one\ntwo\n', 'plain.md': 'plain\n' });
    try {
      gitInit(ws.root);
      unlinkSync(abs('notes.txt'));
      git('checkout', '--', 'notes.txt');
      assert.equal(readFileSync(abs('notes.txt'), 'utf8'), 'one\r\ntwo\r\n');
      const cp = checkpointer();
      try {
        const open = await cp.begin({ runId: 'r1', step: 1, tool: 'run_command', scope: 'workspace' });
        assert.equal(stored(cp).has(hashBytes(Buffer.from('one\r\ntwo\r\n'))), true);
        assert.equal(stored(cp).has(hashBytes(Buffer.from('plain\n'))), false);
        writeFileSync(abs('notes.txt'), 'changed\r\n');
        await open!.end();
        assert.equal(restore(cp.store, ws.root, planRestore(cp.store, ws.root, 'r1', 1)).ok, true);
        assert.equal(readFileSync(abs('notes.txt'), 'utf8'), 'one\r\ntwo\r\n');
      } finally {
        cp.dispose();
      }
    } finally {
      ws.cleanup();
    }
  });

  test('an object the repository no longer has: the change is recorded as not kept, and a restore refuses it', async () => {
    const { ws, abs, git, checkpointer } = repository({ 'committed.txt': 'c\n' });
    try {
      gitInit(ws.root);
      writeFileSync(abs('staged.txt'), 'only in the index\n');
      git('add', 'staged.txt');
      const cp = checkpointer();
      try {
        const open = await cp.begin({ runId: 'r1', step: 1, tool: 'run_command', scope: 'workspace' });
        assert.equal(stored(cp).has(hashBytes(Buffer.from('only in the index\n'))), false);
        // The step stages other bytes and collects the unreachable object at once.
        writeFileSync(abs('staged.txt'), 'other\n');
        git('add', 'staged.txt');
        git('prune', '--expire=now');
        writeFileSync(abs('committed.txt'), 'C\n');
        const record = (await open!.end())!;
        assert.deepEqual(record.uncaptured, ['staged.txt']);
        assert.deepEqual(
          record.changes.map((c) => c.path),
          ['committed.txt'],
        );
        const plan = planRestore(cp.store, ws.root, 'r1', 1);
        assert.ok(
          plan.blocked.some((b) => b.path === 'staged.txt'),
          JSON.stringify(plan.blocked),
        );
      } finally {
        cp.dispose();
      }
    } finally {
      ws.cleanup();
    }
  });
});
