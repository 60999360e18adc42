// Damaged files at start are moved aside, the backup is tried, else a fresh database; the
// caller is told; opening never throws.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HistoryEngine } from '../../../src/core/history/engine';
import { openHistoryStore, type HistoryReport } from '../../../src/core/history';
import { savedRunGoals, withHistoryWorkspace } from '../../support/historyWorkspace';

/** A saved database with one run, and a .bak holding the state before the last save (every save folded into the file). */
async function savedTwice(db: string): Promise<void> {
  const engine = await HistoryEngine.open({ path: db, journalFoldBytes: 0 });
  engine.startRun({ goal: 'in the backup' });
  engine.flush();
  engine.startRun({ goal: 'only in the main file' });
  engine.close();
  assert.ok(existsSync(`${db}.bak`));
}

function corruptFiles(db: string): string[] {
  return readdirSync(path.dirname(db)).filter((n) => n.startsWith('history.db.corrupt-'));
}

const damages: Array<[string, (db: string) => void]> = [
  ['zero-byte', (db) => writeFileSync(db, '')],
  ['truncated to half', (db) => truncateSync(db, Math.floor(readFileSync(db).length / 2))],
  ['garbage', (db) => writeFileSync(db, Buffer.alloc(8192, 0x5a))],
  [
    'valid header, pages overwritten (sql.js opens it lazily)',
    (db) => {
      const bytes = readFileSync(db);
      for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
      writeFileSync(db, bytes);
    },
  ],
];

describe('damaged database at start', () => {
  for (const [name, damage] of damages) {
    test(`${name}: moved aside, backup restored, warning given, restored copy saved`, async () => {
      await withHistoryWorkspace(async (ws) => {
        await savedTwice(ws.db);
        const damagedBytes = (damage(ws.db), readFileSync(ws.db));
        const store = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
        assert.equal(store.warnings.length, 1);
        const w = store.warnings[0]!;
        assert.equal(w.kind, 'recovered-from-backup');
        assert.match(w.message, /moved to .*history\.db\.corrupt-/);
        assert.deepEqual(corruptFiles(ws.db).length, 1);
        assert.deepEqual(readFileSync(w.movedTo!), damagedBytes, 'the damaged file is kept as it was');
        assert.deepEqual(
          (await store.listRuns()).map((r) => r.goal),
          ['in the backup'],
        );
        await store.close();
        const again = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
        assert.deepEqual(again.warnings, [], 'the restored copy was written back');
        assert.equal((await again.listRuns()).length, 1);
        await again.close();
      });
    });
  }

  test('damaged file and damaged backup: fresh database, warning, and the worker store opens too', async () => {
    await withHistoryWorkspace(async (ws) => {
      await savedTwice(ws.db);
      writeFileSync(ws.db, '');
      writeFileSync(`${ws.db}.bak`, 'not a database either');
      const notes: string[] = [];
      const store = await openHistoryStore({
        workspace: ws.dir,
        exitHook: false,
        notifier: { info: () => {}, warn: (m) => notes.push(m), error: (m) => notes.push(m) },
      });
      assert.equal(store.warnings[0]!.kind, 'recovered-fresh');
      assert.match(notes[0]!, /empty \(zero bytes\).*started a new, empty history/s);
      assert.deepEqual(await store.listRuns(), []);
      await store.startRun({ goal: 'life goes on' });
      await store.close();
      const engine = await HistoryEngine.open({ path: ws.db });
      assert.deepEqual(engine.db.warnings, []);
      assert.equal(engine.listRuns()[0]!.goal, 'life goes on');
      engine.close();
    });
  });

  test('another process leaves a damaged file while we run: moved aside at our next save, our copy rewritten', async () => {
    await withHistoryWorkspace(async (ws) => {
      const reports: HistoryReport[] = [];
      const engine = await HistoryEngine.open({ path: ws.db, onReport: (r) => reports.push(r) });
      engine.startRun({ goal: 'mine' });
      engine.flush();
      writeFileSync(ws.db, 'garbage written by someone else');
      engine.startRun({ goal: 'mine too' });
      engine.flush();
      assert.equal(reports[0]!.kind, 'recovered-from-backup');
      assert.equal(corruptFiles(ws.db).length, 1);
      engine.close();
      assert.deepEqual(await savedRunGoals(ws.db), ['mine', 'mine too']);
    });
  });

  test('a missing folder is not an error; a folder where the file should be is reported, not thrown', async () => {
    await withHistoryWorkspace(async (ws) => {
      mkdirSync(path.join(ws.db, 'inner'), { recursive: true });
      const store = await openHistoryStore({ workspace: ws.dir, mode: 'in-process', exitHook: false });
      assert.equal(store.warnings[0]!.kind, 'recovered-fresh');
      assert.match(store.warnings[0]!.message, /cannot read it/);
      await store.startRun({ goal: 'x' });
      await assert.rejects(store.flush(), /could not save the history database/);
    });
  });
});
