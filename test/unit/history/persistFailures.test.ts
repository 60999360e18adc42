// Saves that fail (rename refused, disk full, read-only folder, a folder in the way) are
// reported, retried with capped backoff, leave no temp file, keep the data in memory, and succeed
// once the cause is gone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import path from 'node:path';
import { HistoryEngine } from '../../../src/core/history/engine';
import { nodeFs, type FsLayer } from '../../../src/core/fs/fsLayer';
import { openHistoryStore, type HistoryReport } from '../../../src/core/history';
import { savedRunGoals, tempHistoryWorkspace, withHistoryWorkspace } from '../../support/historyWorkspace';

const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });
const tempFiles = (db: string) => fs.readdirSync(path.dirname(db)).filter((n) => n.includes('.tmp-'));

/** node:fs with the rename of the database temp file replaced while `failing` says so. */
function flakyFs(state: { renameFailures: number; writeFails?: boolean; code?: string }): FsLayer {
  return {
    ...nodeFs,
    renameSync: (from: fs.PathLike, to: fs.PathLike) => {
      if (String(from).includes('history.db.tmp-') && state.renameFailures > 0) {
        state.renameFailures--;
        throw errno(state.code ?? 'EBUSY');
      }
      nodeFs.renameSync(from, to);
    },
    writeSync: ((fd: number, ...rest: unknown[]) => {
      if (state.writeFails) throw errno('ENOSPC');
      return (nodeFs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    }) as FsLayer['writeSync'],
  };
}

describe('failed saves', () => {
  test('a rename refused twice with EBUSY (virus scanner) succeeds on a quick retry', async () => {
    await withHistoryWorkspace(async (ws) => {
      const state = { renameFailures: 2 };
      const engine = await HistoryEngine.open({ path: ws.db, fs: flakyFs(state) });
      engine.startRun({ goal: 'g' });
      engine.flush();
      assert.equal(state.renameFailures, 0);
      assert.deepEqual(tempFiles(ws.db), []);
      assert.equal(engine.db.pendingCount, 0);
      engine.close();
    });
  });

  test('a rename that keeps failing: error surfaced, temp file removed, original intact, data kept, later save succeeds', async () => {
    await withHistoryWorkspace(async (ws) => {
      const state = { renameFailures: 0, code: 'EPERM' };
      const reports: HistoryReport[] = [];
      // Every save folds (rewrites the file): the failing rename is the fold's.
      const engine = await HistoryEngine.open({ path: ws.db, fs: flakyFs(state), onReport: (r) => reports.push(r), retryBaseMs: 60_000, journalFoldBytes: 0 });
      engine.startRun({ goal: 'saved before the trouble' });
      engine.flush();
      const original = fs.readFileSync(ws.db);

      state.renameFailures = 1_000;
      engine.startRun({ goal: 'written during the trouble' });
      assert.throws(
        () => engine.flush(),
        (e: Error & { code?: string }) => /could not save the history database.*EPERM/.test(e.message) && e.code === 'EPERM',
      );
      assert.equal(reports[0]!.kind, 'persist-failed');
      assert.match(reports[0]!.message, /kept in memory/);
      assert.equal(engine.stats().lastPersistError, 'EPERM: injected');
      assert.deepEqual(tempFiles(ws.db), [], 'temp file cleaned');
      assert.deepEqual(fs.readFileSync(ws.db), original, 'original file untouched');
      assert.equal(engine.listRuns().length, 2, 'data kept in memory');
      assert.equal(engine.db.pendingCount, 1);
      assert.ok(state.renameFailures < 1_000 && state.renameFailures >= 1_000 - 4, 'a bounded number of quick retries');

      state.renameFailures = 0;
      engine.flush();
      assert.equal(reports.at(-1)!.kind, 'persist-recovered');
      engine.close();
      assert.equal((await savedRunGoals(ws.db)).length, 2);
    });
  });

  test('disk full during the write: background retries back off and recover by themselves', async () => {
    await withHistoryWorkspace(async (ws) => {
      const state = { renameFailures: 0, writeFails: true };
      const reports: HistoryReport[] = [];
      const engine = await HistoryEngine.open({
        path: ws.db,
        fs: flakyFs(state),
        onReport: (r) => reports.push(r),
        persistDelayMs: 5,
        maxPersistDelayMs: 10,
        retryBaseMs: 20,
        retryMaxMs: 40,
      });
      engine.startRun({ goal: 'waits for space' });
      await until(() => reports.length > 0);
      assert.equal(reports[0]!.kind, 'persist-failed');
      assert.match(reports[0]!.message, /ENOSPC/);
      await new Promise((r) => setTimeout(r, 150)); // several retries, reported once
      assert.equal(reports.length, 1);
      assert.deepEqual(tempFiles(ws.db), []);
      state.writeFails = false;
      await until(() => reports.some((r) => r.kind === 'persist-recovered'));
      assert.equal(engine.db.pendingCount, 0);
      engine.close();
    });
  });

  test('real failure through the worker store: a folder in place of the file, then removed', async () => {
    await withHistoryWorkspace(async (ws) => {
      const store = await openHistoryStore({ workspace: ws.dir, exitHook: false, retryBaseMs: 60_000 });
      await store.startRun({ goal: 'first' });
      await store.flush();
      fs.rmSync(ws.db);
      fs.mkdirSync(path.join(ws.db, 'blocker'), { recursive: true }); // rename(file, non-empty dir) fails even for root
      const failed: HistoryReport[] = [];
      store.onDidReport((r) => failed.push(r));
      await store.startRun({ goal: 'second' });
      await assert.rejects(store.flush(), /could not save the history database/);
      assert.equal(failed[0]?.kind, 'persist-failed');
      assert.deepEqual(tempFiles(ws.db), []);
      assert.equal((await store.listRuns()).length, 2, 'still in memory');
      fs.rmSync(ws.db, { recursive: true });
      await store.close(); // flushes
      assert.deepEqual(await savedRunGoals(ws.db), ['first', 'second']);
    });
  });

  test(
    'read-only folder (real chmod; skipped as root, where chmod does not stop writes)',
    { skip: process.getuid?.() === 0 ? 'running as root' : false },
    async () => {
      const ws = tempHistoryWorkspace();
      try {
        const engine = await HistoryEngine.open({ path: ws.db, retryBaseMs: 60_000 });
        engine.startRun({ goal: 'a' });
        engine.flush();
        const original = fs.readFileSync(ws.db);
        fs.chmodSync(path.dirname(ws.db), 0o555);
        engine.startRun({ goal: 'b' });
        assert.throws(() => engine.flush(), /could not save/);
        assert.deepEqual(fs.readFileSync(ws.db), original);
        fs.chmodSync(path.dirname(ws.db), 0o755);
        engine.flush();
        engine.close();
      } finally {
        fs.chmodSync(path.dirname(ws.db), 0o755);
        ws.cleanup();
      }
    },
  );

  test('close() saves pending writes; a debounced save happens without any flush', async () => {
    await withHistoryWorkspace(async (ws) => {
      const engine = await HistoryEngine.open({ path: ws.db, persistDelayMs: 20, maxPersistDelayMs: 50 });
      engine.startRun({ goal: 'debounced' });
      await until(() => fs.existsSync(ws.db));
      assert.equal(engine.db.pendingCount, 0);
      engine.startRun({ goal: 'on close' });
      engine.close();
      assert.equal((await savedRunGoals(ws.db)).length, 2);
    });
  });
});

async function until(cond: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
