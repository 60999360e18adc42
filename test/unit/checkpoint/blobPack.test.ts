import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Checkpointer, planRestore, restore } from '../../../src/core/checkpoint';
import { BlobStore } from '../../../src/core/checkpoint/blobStore';
import { tempWorkspace } from '../tools/helpers';

const text = (i: number) => Buffer.from(`export const value${i} = ${'"padding" + '.repeat(i % 40)}${i};\n`);
const BINARY = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));

function packsOf(dir: string): string[] {
  try {
    return readdirSync(path.join(dir, 'packs'));
  } catch {
    return [];
  }
}

describe('packed blobs', () => {
  test("a batch's small blobs go into one compressed pack, read back exactly, by this store and a new one", () => {
    const ws = tempWorkspace({});
    try {
      const dir = path.join(ws.root, 'blobs');
      const store = new BlobStore(dir, ws.root);
      store.startBatch();
      const hashes = Array.from({ length: 100 }, (_, i) => store.put(text(i)).hash);
      const binary = store.put(BINARY).hash;
      const empty = store.put(Buffer.alloc(0)).hash;
      assert.equal(store.put(text(3)).added, 0, 'the same bytes are kept once');
      assert.deepEqual(store.get(hashes[5]!), text(5), 'readable before the batch is written');
      store.endBatch();
      assert.equal(packsOf(dir).length, 1);
      assert.deepEqual(
        readdirSync(dir).filter((n) => n !== 'packs'),
        [],
        'no file of its own per blob',
      );
      const packBytes = statSync(path.join(dir, 'packs', packsOf(dir)[0]!)).size;
      const raw = Array.from({ length: 100 }, (_, i) => text(i).length).reduce((a, b) => a + b, 0) + BINARY.length;
      assert.ok(packBytes < raw * 0.7, `compressed: ${packBytes} of ${raw}`);
      for (const reader of [store, new BlobStore(dir, ws.root)]) {
        hashes.forEach((h, i) => assert.deepEqual(reader.get(h), text(i)));
        assert.deepEqual(reader.get(binary), BINARY);
        assert.deepEqual(reader.get(empty), Buffer.alloc(0));
        assert.equal(reader.list().length, 102);
      }

      // Pruning rewrites the pack without the dropped blobs, once.
      store.removeAll(hashes.slice(0, 50));
      assert.equal(packsOf(dir).length, 1);
      const fresh = new BlobStore(dir, ws.root);
      assert.equal(fresh.has(hashes[0]!), false);
      assert.deepEqual(fresh.get(hashes[70]!), text(70));
      assert.equal(fresh.list().length, 52);
      store.removeAll([...hashes.slice(50), binary, empty]);
      assert.deepEqual(packsOf(dir), []);
    } finally {
      ws.cleanup();
    }
  });

  test('a few blobs are written as files of their own (a step makes no pack); a torn pack is not read', () => {
    const ws = tempWorkspace({});
    try {
      const dir = path.join(ws.root, 'blobs');
      const store = new BlobStore(dir, ws.root);
      store.startBatch();
      const few = Array.from({ length: 3 }, (_, i) => store.put(text(i)).hash);
      store.endBatch();
      assert.deepEqual(packsOf(dir), []);
      assert.deepEqual(store.get(few[1]!), text(1));

      store.startBatch();
      const many = Array.from({ length: 40 }, (_, i) => store.put(text(100 + i)).hash);
      store.endBatch();
      const pack = path.join(dir, 'packs', packsOf(dir)[0]!);
      truncateSync(pack, statSync(pack).size - 3);
      const fresh = new BlobStore(dir, ws.root);
      assert.equal(fresh.has(many[0]!), false, 'its blobs are missing, as a lost blob is: a restore refuses them');
      assert.deepEqual(fresh.get(few[0]!), text(0));
    } finally {
      ws.cleanup();
    }
  });

  test("a workspace's first checkpoint packs its files; a restore of a step that rewrote them all is exact", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`src/m${i % 6}/f${i}.ts`] = text(i).toString();
    const ws = tempWorkspace(files);
    writeFileSync(path.join(ws.root, 'image.bin'), BINARY);
    const cp = new Checkpointer({ root: ws.root, stateDir: path.join(ws.root, '.patchpilot'), maxBytes: 1024 ** 3, ignored: () => () => false, watch: false });
    try {
      const open = await cp.begin({ runId: 'r1', step: 1, tool: 'run_command', scope: 'workspace' });
      assert.equal(packsOf(cp.store.blobs.dir).length, 1);
      for (const rel of Object.keys(files)) writeFileSync(path.join(ws.root, rel), 'rewritten\n');
      writeFileSync(path.join(ws.root, 'image.bin'), 'no longer binary\n');
      const record = await open!.end();
      assert.equal(record!.changes.length, 121);
      assert.equal(restore(cp.store, ws.root, planRestore(cp.store, ws.root, 'r1', 1)).ok, true);
      for (const [rel, body] of Object.entries(files)) assert.equal(readFileSync(path.join(ws.root, rel), 'utf8'), body);
      assert.deepEqual(readFileSync(path.join(ws.root, 'image.bin')), BINARY);
    } finally {
      cp.dispose();
      ws.cleanup();
    }
  });
});
