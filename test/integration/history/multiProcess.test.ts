// Concurrent writers and the exit hook, with real child processes writing one real file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { HistoryEngine } from '../../../src/core/history/engine';
import { FileLock, LockTimeoutError } from '../../../src/core/history/fileLock';
import { nodeFs } from '../../../src/core/fs/fsLayer';
import { bundleFixture, spawnWriter, waitExit, waitForLine, type Fixture } from './helpers';
import { savedRunGoals, tempHistoryWorkspace, withHistoryWorkspace } from '../../support/historyWorkspace';

let fixture: Fixture;
before(async () => {
  fixture = await bundleFixture();
});
after(() => fixture.cleanup());

async function countObservations(db: string, like = '%'): Promise<{ total: number; texts: Set<string> }> {
  const engine = await HistoryEngine.open({ path: db });
  try {
    const rows = engine.db.conn.all<{ text: string }>(`SELECT text FROM observations WHERE text LIKE ?`, [like]);
    return { total: rows.length, texts: new Set(rows.map((r) => r.text)) };
  } finally {
    engine.close();
  }
}

describe('two processes writing one database', () => {
  test('2 processes x 200 rows with interleaved flushes: all 400 rows and both runs are on disk', async () => {
    await withHistoryWorkspace(async (ws) => {
      const a = spawnWriter(fixture, ['rows', ws.db, '200', '7', 'A']);
      const b = spawnWriter(fixture, ['rows', ws.db, '200', '5', 'B']);
      await Promise.all([waitForLine(a, 'done', 60_000), waitForLine(b, 'done', 60_000)]);
      assert.equal(await waitExit(a), 0);
      assert.equal(await waitExit(b), 0);
      const { total, texts } = await countObservations(ws.db);
      assert.equal(total, 400);
      for (const tag of ['A', 'B']) for (let i = 0; i < 200; i++) assert.ok(texts.has(`${tag} row ${i}`), `${tag} row ${i} missing`);
      assert.deepEqual(await savedRunGoals(ws.db), ['writer A', 'writer B']);
      assert.equal(existsSync(`${ws.db}.lock`), false, 'lock released');
    });
  });
});

describe('the lock', () => {
  test('a live holder is never robbed: the waiter times out, then gets the lock once it is released', async () => {
    const ws = tempHistoryWorkspace();
    mkdirSync(`${ws.dir}/.patchpilot`, { recursive: true });
    const holder = spawnWriter(fixture, ['hold-lock', ws.db, '1500']);
    try {
      await waitForLine(holder, 'locked');
      // staleMs (300) is shorter than the hold, but the holder's heartbeat keeps its lock fresh.
      const waiter = new FileLock(nodeFs, `${ws.db}.lock`, { timeoutMs: 400, staleMs: 800 });
      assert.throws(() => waiter.acquire(), LockTimeoutError);
      const patient = new FileLock(nodeFs, `${ws.db}.lock`, { timeoutMs: 10_000, staleMs: 800 });
      await waitForLine(holder, 'released');
      patient.acquire();
      assert.ok(patient.held);
      patient.release();
    } finally {
      holder.kill('SIGKILL');
      await waitExit(holder);
      ws.cleanup();
    }
  });

  test('a lock left by a killed process is taken over at once', async () => {
    const ws = tempHistoryWorkspace();
    mkdirSync(`${ws.dir}/.patchpilot`, { recursive: true });
    const holder = spawnWriter(fixture, ['hold-lock', ws.db, '60000']);
    try {
      await waitForLine(holder, 'locked');
      holder.kill('SIGKILL');
      await waitExit(holder); // reaped: its pid no longer answers kill(pid, 0)
      const lock = new FileLock(nodeFs, `${ws.db}.lock`, { timeoutMs: 2_000, staleMs: 60_000 });
      const t0 = Date.now();
      lock.acquire();
      assert.ok(Date.now() - t0 < 1_500);
      lock.release();
    } finally {
      ws.cleanup();
    }
  });

  test('a lock from another host whose heartbeat stopped is taken over; a fresh one is not', () => {
    const ws = tempHistoryWorkspace();
    mkdirSync(`${ws.dir}/.patchpilot`, { recursive: true });
    const lockPath = `${ws.db}.lock`;
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: 1, host: `${os.hostname()}-elsewhere`, token: 't', since: 0 }));
      assert.throws(() => new FileLock(nodeFs, lockPath, { timeoutMs: 200, staleMs: 5_000 }).acquire(), LockTimeoutError);
      const old = new Date(Date.now() - 10_000);
      nodeFs.utimesSync(lockPath, old, old);
      const lock = new FileLock(nodeFs, lockPath, { timeoutMs: 200, staleMs: 5_000 });
      lock.acquire();
      lock.release();
    } finally {
      ws.cleanup();
    }
  });
});

test('a process that ends without flush or close still saves (process.on("exit") hook)', async () => {
  await withHistoryWorkspace(async (ws) => {
    const child = spawnWriter(fixture, ['exit-without-close', ws.db, '30']);
    await waitForLine(child, 'written');
    assert.equal(await waitExit(child), 0);
    assert.equal((await countObservations(ws.db, 'unsaved %')).total, 30);
  });
});
