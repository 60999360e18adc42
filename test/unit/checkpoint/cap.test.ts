import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Checkpointer, planRestore, restore } from '../../../src/core/checkpoint';
import { tempWorkspace } from '../tools/helpers';

/** A workspace of 20 files of 1 KiB: 20 KiB, far over the cap of 4 KiB each test sets. */
function bigWorkspace(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`src/f${i}.txt`] = `${i}`.padEnd(1024, '.');
  return files;
}

describe('the checkpoint cap on a workspace larger than the cap', () => {
  test('the copy of the workspace is not made twice, the run before stays restorable, what the cap dropped is said', async () => {
    const ws = tempWorkspace(bigWorkspace());
    const abs = (rel: string) => path.join(ws.root, rel);
    const notices: string[] = [];
    const cp = () => new Checkpointer({ root: ws.root, stateDir: path.join(ws.root, '.patchpilot'), maxBytes: 4096, ignored: () => () => false, watch: false });
    try {
      // Three runs, one process each (a new Checkpointer looks at the whole workspace again), each editing one file.
      const added: number[] = [];
      for (const [run, file] of [
        ['run-1', 'src/f1.txt'],
        ['run-2', 'src/f2.txt'],
        ['run-3', 'src/f3.txt'],
      ] as const) {
        const c = cp();
        const open = await c.begin({ runId: run, step: 1, tool: 'run_command', scope: 'workspace', notice: (m) => notices.push(m) });
        writeFileSync(abs(file), `${run} was here`.padEnd(1500, '!'));
        await open!.end();
        added.push(c.last!.addedBytes);
        c.dispose();
      }
      // The first run copied the workspace; the later ones only the bytes their step wrote (before the fix: the whole workspace again).
      assert.ok(added[0]! >= 20 * 1024, `first copy ${added[0]}`);
      assert.deepEqual(added.slice(1), [1500, 1500]);
      // The restore points hold 2 x 1 KiB of earlier bytes (f1, f2, f3 before): run-1's 1 KiB fits with the others under 4 KiB.
      const store = cp().store;
      assert.deepEqual(
        store
          .runs()
          .map((r) => r.runId)
          .sort(),
        ['run-1', 'run-2', 'run-3'],
      );
      const plan = planRestore(store, ws.root, 'run-2', 1);
      assert.deepEqual(plan.blocked, []);
      assert.equal(restore(store, ws.root, plan).ok, true);
      assert.equal(readFileSync(abs('src/f2.txt'), 'utf8'), '2'.padEnd(1024, '.'));
      assert.deepEqual(notices, []);
    } finally {
      ws.cleanup();
    }
  });

  test('over the cap the oldest run goes, the newest stay restorable, and the dropped run is named', async () => {
    const ws = tempWorkspace(bigWorkspace());
    const abs = (rel: string) => path.join(ws.root, rel);
    const notices: string[] = [];
    const c = new Checkpointer({ root: ws.root, stateDir: path.join(ws.root, '.patchpilot'), maxBytes: 2500, ignored: () => () => false, watch: false });
    try {
      for (let i = 1; i <= 4; i++) {
        const open = await c.begin({ runId: `run-${i}`, step: 1, tool: 'run_command', scope: 'workspace', notice: (m) => notices.push(m) });
        writeFileSync(abs(`src/f${i}.txt`), `run ${i}`.padEnd(1024, '#'));
        await open!.end();
      }
      // Each run's before is 1 KiB of history: 4 KiB over a 2.5 KiB cap, the two oldest go.
      assert.deepEqual(
        c.store
          .runs()
          .map((r) => r.runId)
          .sort(),
        ['run-3', 'run-4'],
      );
      assert.equal(notices.length, 2);
      assert.match(notices.join('\n'), /over its cap .*run-1/);
      for (const run of ['run-4', 'run-3']) {
        const plan = planRestore(c.store, ws.root, run, 1);
        assert.deepEqual(plan.blocked, []);
        assert.equal(restore(c.store, ws.root, plan).ok, true);
      }
      assert.equal(readFileSync(abs('src/f3.txt'), 'utf8'), '3'.padEnd(1024, '.'));
      assert.equal(readFileSync(abs('src/f4.txt'), 'utf8'), '4'.padEnd(1024, '.'));
    } finally {
      c.dispose();
      ws.cleanup();
    }
  });
});

describe("a first checkpoint stops at the run's abort signal", () => {
  test('begin rejects once the signal aborts; the next begin copies only what the first did not', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`src/f${i}.txt`] = `file ${i}\n`;
    const ws = tempWorkspace(files);
    const c = new Checkpointer({ root: ws.root, stateDir: path.join(ws.root, '.patchpilot'), maxBytes: 1024 ** 3, ignored: () => () => false, watch: false });
    try {
      const controller = new AbortController();
      setImmediate(() => controller.abort()); // at the capture's first turn of the event loop
      await assert.rejects(c.begin({ runId: 'r', step: 1, tool: 'run_command', scope: 'workspace', signal: controller.signal }), { name: 'AbortError' });
      const open = await c.begin({ runId: 'r', step: 2, tool: 'run_command', scope: 'workspace' });
      writeFileSync(abs(ws.root, 'src/f0.txt'), 'changed\n');
      const record = await open!.end();
      assert.deepEqual(
        record!.changes.map((ch) => ch.path),
        ['src/f0.txt'],
      );
    } finally {
      c.dispose();
      ws.cleanup();
    }
  });
});

function abs(root: string, rel: string): string {
  return path.join(root, rel);
}
