// `kill -9` of a real writer at random moments during saves (journal appends and folds); the file
// always loads, never "malformed", and the file with its journal holds every save made.
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadSqlJs } from '../../../src/core/history/sqljs';
import { openVerified } from '../../../src/core/history/loadDb';
import { nodeFs } from '../../../src/core/fs/fsLayer';
import { HistoryEngine } from '../../../src/core/history/engine';
import { bundleFixture, spawnWriter, waitExit, waitForLine, type Fixture } from './helpers';
import { tempHistoryWorkspace } from '../../support/historyWorkspace';

const TRIALS = Number(process.env.PATCHPILOT_KILL_TRIALS ?? 50);
let fixture: Fixture;
before(async () => {
  fixture = await bundleFixture();
});
after(() => fixture.cleanup());

/** Kills a writer in `mode` at random moments, TRIALS times; after each, the file and its journal hold every save made. */
async function killTrials(t: TestContext, mode: 'loop' | 'loop-paged'): Promise<void> {
  const readerOptions = mode === 'loop-paged' ? { pagedFromBytes: 0 } : {};
  const SQL = await loadSqlJs();
  const ws = tempHistoryWorkspace();
  let previous = 0;
  let midSave = 0;
  let tornTails = 0;
  try {
    for (let trial = 0; trial < TRIALS; trial++) {
      const child = spawnWriter(fixture, [mode, ws.db]);
      await waitForLine(child, 'ready');
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 145));
      child.kill('SIGKILL');
      await waitExit(child);
      if (readdirSync(path.dirname(ws.db)).some((n) => n.startsWith('history.db.tmp-'))) midSave++;

      if (existsSync(ws.db)) {
        const opened = openVerified(SQL, nodeFs.readFileSync(ws.db));
        assert.ok('conn' in opened, `trial ${trial}: ${'problem' in opened ? opened.problem : ''}`);
        opened.conn.close();
      }
      // The file plus its journal, as the next process sees them.
      const reader = await HistoryEngine.open({ path: ws.db, ...readerOptions });
      const count = reader.stats().rows.observations;
      if (reader.db.warnings.some((w) => w.kind === 'journal-torn-tail')) tornTails++;
      reader.close();
      // Each save holds whole batches of 20 (a save never contains half a batch) and nothing saved is lost.
      assert.equal(count % 20, 0, `trial ${trial}: ${count} rows is not whole batches`);
      assert.ok(count >= previous + 20, `trial ${trial}: ${count} rows after ${previous}`);
      previous = count;
    }
    t.diagnostic(`${midSave} of ${TRIALS} kills left a half-written temp file (killed mid-fold)`);
    t.diagnostic(`${tornTails} of ${TRIALS} kills left a torn journal line (killed mid-append), dropped with a note`);
    // What the store itself sees: no warnings, integrity ok, leftovers of killed savers cleaned up.
    const engine = await HistoryEngine.open({ path: ws.db, ...readerOptions });
    assert.deepEqual(engine.db.warnings, []);
    engine.close();
    const leftovers = readdirSync(path.dirname(ws.db)).filter((n) => n.includes('.tmp-'));
    assert.deepEqual(leftovers, []);
  } finally {
    ws.cleanup();
  }
}

test(`kill -9 during saves, ${TRIALS} trials: old or new content, never damaged`, (t) => killTrials(t, 'loop'));

test(`kill -9 during saves of a file read a page at a time (folds written from its pages), ${TRIALS} trials`, (t) => killTrials(t, 'loop-paged'));
