// The append-only journal: saves append instead of rewriting the file, a reopen replays them, a torn
// last line (a writer killed mid-append) is dropped with a note, and folding starts a new journal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, truncateSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HistoryEngine } from '../../../src/core/history/engine';
import { fingerprintOf, journalPath, parseJournal } from '../../../src/core/history/journal';
import { withHistoryWorkspace } from '../../support/historyWorkspace';

const goals = (engine: HistoryEngine) =>
  engine
    .listRuns()
    .map((r) => r.goal)
    .sort();

test('saves append to the journal and leave the file alone; a reopen replays them', async () => {
  await withHistoryWorkspace(async (ws) => {
    const engine = await HistoryEngine.open({ path: ws.db });
    engine.startRun({ goal: 'first' });
    engine.flush(); // no file yet: this save writes it
    const fileBefore = statSync(ws.db);
    engine.startRun({ goal: 'second' });
    engine.flush();
    engine.startRun({ goal: 'third' });
    engine.close();
    const after = statSync(ws.db);
    assert.equal(after.ino, fileBefore.ino, 'the database file was not rewritten');
    assert.equal(after.mtimeMs, fileBefore.mtimeMs);
    const journal = parseJournal(readFileSync(journalPath(ws.db)));
    assert.equal(journal.records.length, 2);
    assert.equal(journal.tornBytes, 0);

    const again = await HistoryEngine.open({ path: ws.db });
    assert.deepEqual(goals(again), ['first', 'second', 'third']);
    assert.deepEqual(again.db.warnings, []);
    again.close();
  });
});

test('a torn last line is dropped with a note; everything saved before it is kept, and the next save folds it away', async () => {
  await withHistoryWorkspace(async (ws) => {
    const engine = await HistoryEngine.open({ path: ws.db });
    engine.startRun({ goal: 'in the file' });
    engine.flush();
    engine.startRun({ goal: 'committed to the journal' });
    engine.flush();
    engine.startRun({ goal: 'torn' });
    engine.close();
    // What kill -9 in the middle of the last append leaves: the line cut short.
    const journal = journalPath(ws.db);
    truncateSync(journal, statSync(journal).size - 25);

    const reopened = await HistoryEngine.open({ path: ws.db });
    assert.deepEqual(goals(reopened), ['committed to the journal', 'in the file']);
    assert.equal(reopened.db.warnings.length, 1);
    assert.equal(reopened.db.warnings[0]!.kind, 'journal-torn-tail');
    assert.match(reopened.db.warnings[0]!.message, /dropped an incomplete last entry .* everything saved before it is kept/);
    reopened.startRun({ goal: 'after the tear' });
    reopened.close();

    const read = parseJournal(readFileSync(journal));
    assert.equal(read.tornBytes, 0, 'the torn tail is gone');
    const last = await HistoryEngine.open({ path: ws.db });
    assert.deepEqual(goals(last), ['after the tear', 'committed to the journal', 'in the file']);
    assert.deepEqual(last.db.warnings, []);
    last.close();
  });
});

test('a journal past its fold size is folded into the file and starts again', async () => {
  await withHistoryWorkspace(async (ws) => {
    const engine = await HistoryEngine.open({ path: ws.db, journalFoldBytes: 2_000 });
    engine.startRun({ goal: 'g' });
    engine.flush();
    const ino = statSync(ws.db).ino;
    for (let i = 0; i < 20; i++) {
      engine.recordObservation({ tool: 'grep', insight: 'i', result: `a result long enough to be kept, number ${i}`, isError: false });
      engine.flush();
    }
    assert.notEqual(statSync(ws.db).ino, ino, 'folded into a new file');
    assert.ok(statSync(journalPath(ws.db)).size <= 2_000);
    engine.close();
    const again = await HistoryEngine.open({ path: ws.db });
    assert.equal(again.stats().rows.observations, 20);
    again.close();
  });
});

test('another process sees journal lines appended after it opened', async () => {
  await withHistoryWorkspace(async (ws) => {
    const a = await HistoryEngine.open({ path: ws.db });
    a.startRun({ goal: 'from a' });
    a.flush();
    const b = await HistoryEngine.open({ path: ws.db });
    a.startRun({ goal: 'from a, later' });
    a.flush();
    b.startRun({ goal: 'from b' });
    b.flush();
    assert.deepEqual(goals(b), ['from a', 'from a, later', 'from b']);
    assert.deepEqual(goals(a), ['from a', 'from a, later', 'from b']);
    a.close();
    b.close();
  });
});

test('the journal is written only through real folders: a state folder swapped for a link is refused', async () => {
  const outside = mkdtempSync(path.join(os.tmpdir(), 'pp-hist-outside-'));
  try {
    await withHistoryWorkspace(async (ws) => {
      const engine = await HistoryEngine.open({ path: ws.db, confineTo: ws.dir });
      engine.startRun({ goal: 'g' });
      engine.flush();
      // A command run by the agent replaces the state folder with a link to a folder outside.
      rmSync(path.dirname(ws.db), { recursive: true });
      symlinkSync(outside, path.dirname(ws.db));
      engine.startRun({ goal: 'must not land outside' });
      assert.throws(() => engine.flush(), /symbolic link|symlink/);
      assert.equal(existsSync(path.join(outside, 'history.db.journal')), false);
      assert.equal(existsSync(path.join(outside, 'history.db')), false);
      rmSync(path.dirname(ws.db));
      mkdirSync(path.dirname(ws.db));
      engine.close();
    });
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('a file without a journal (an older PatchPilot wrote it) is checked once: that open starts a journal naming it', async () => {
  await withHistoryWorkspace(async (ws) => {
    const engine = await HistoryEngine.open({ path: ws.db });
    engine.startRun({ goal: 'old' });
    engine.close();
    rmSync(journalPath(ws.db));
    const reopened = await HistoryEngine.open({ path: ws.db });
    const journal = parseJournal(readFileSync(journalPath(ws.db)));
    assert.equal(journal.base, fingerprintOf(readFileSync(ws.db)), 'the next open knows this file needs no check');
    assert.deepEqual(goals(reopened), ['old']);
    reopened.close();
  });
});
