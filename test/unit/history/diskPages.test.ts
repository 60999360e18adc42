// The history's database file is read a page at a time (diskPages.ts): the answers are those of the
// file loaded whole, writes stay in memory over it, and a query reads only the pages it needs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'sql.js';
import { loadSqlJs, sqlWasmPath } from '../../../src/core/history/sqljs';
import { openPagedFile, pagingAvailable, PAGED_WASM_SHA1 } from '../../../src/core/history/diskPages';
import { HistoryEngine } from '../../../src/core/history/engine';
import type { FsLayer } from '../../../src/core/fs/fsLayer';

const sha1 = (file: string) => createHash('sha1').update(fs.readFileSync(file)).digest('hex');

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-pages-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Counts the bytes read from files through this layer. */
function countingFs(): { fsx: FsLayer; bytesRead: () => number } {
  let read = 0;
  const fsx: FsLayer = {
    ...fs,
    readSync: ((fd: number, buffer: NodeJS.ArrayBufferView, ...rest: unknown[]) => {
      const n = (fs.readSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
      read += n;
      return n;
    }) as typeof fs.readSync,
  };
  return { fsx, bytesRead: () => read };
}

const rows = (db: Database, sql: string) => JSON.stringify(db.exec(sql));

describe('reading the database a page at a time', () => {
  test('the sql.js build installed is the one whose file calls are wrapped (an upgrade must update the table)', async () => {
    await loadSqlJs();
    assert.equal(sha1(sqlWasmPath()), PAGED_WASM_SHA1);
    assert.equal(pagingAvailable(), true);
  });

  test('queries and writes answer as on the file loaded whole; the file on disk is not written', async (t) => {
    const SQL = await loadSqlJs();
    const file = path.join(tempDir(t), 'a.db');
    const src = new SQL.Database();
    src.exec('CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT); CREATE VIRTUAL TABLE f USING fts4(body)');
    for (let i = 0; i < 3000; i++) src.run('INSERT INTO t(body) VALUES (?)', [`row ${i} ${'lorem '.repeat(i % 50)}`]);
    src.exec("INSERT INTO f(body) SELECT body FROM t WHERE id % 7 = 0; INSERT INTO f(body) VALUES ('needle in the hay')");
    fs.writeFileSync(file, src.export());
    src.close();
    const before = sha1(file);

    const whole = new SQL.Database(fs.readFileSync(file));
    const paged = openPagedFile(fs, file);
    const db = paged.bind(() => new SQL.Database());
    db.exec('PRAGMA journal_mode = MEMORY');
    const sameAnswers = () => {
      for (const sql of ['SELECT count(*), sum(length(body)) FROM t', "SELECT rowid FROM f WHERE f MATCH 'needle OR lorem' LIMIT 50", 'PRAGMA quick_check']) {
        assert.equal(rows(db, sql), rows(whole, sql), sql);
      }
    };
    sameAnswers();
    const writes = "DELETE FROM t WHERE id % 3 = 0; UPDATE t SET body = body || ' changed' WHERE id % 5 = 0; INSERT INTO f(body) VALUES ('another needle')";
    db.exec(writes);
    whole.exec(writes);
    sameAnswers();
    assert.ok(paged.changedBytes() > 0);
    assert.equal(sha1(file), before, 'the file itself is untouched');
    const exported = new SQL.Database(db.export());
    assert.equal(rows(exported, 'SELECT count(*), sum(length(body)) FROM t'), rows(whole, 'SELECT count(*), sum(length(body)) FROM t'));
    for (const d of [exported, whole, db]) d.close();
    paged.release();
  });

  test('a history of 400 runs: listing the newest runs reads a small part of the file', async (t) => {
    const db = path.join(tempDir(t), 'history.db');
    const engine = await HistoryEngine.open({ path: db, persistDelayMs: 600_000, maxPersistDelayMs: 600_000 });
    for (let r = 0; r < 400; r++) {
      const runId = engine.startRun({ goal: `run ${r}`, startedAt: Date.now() - (400 - r) * 60_000 });
      for (let i = 0; i < 5; i++)
        engine.recordObservation({ runId, tool: 'grep', insight: `i ${i}`, result: `result marker${r}z${i} ${'text '.repeat(300)}`, isError: false });
      engine.finishRun(runId, { status: 'finished', steps: 5 });
    }
    engine.close();
    const size = fs.statSync(db).size;
    assert.ok(size > 5_000_000, `file of ${size} bytes`);

    const { fsx, bytesRead } = countingFs();
    const reader = await HistoryEngine.open({ path: db, fs: fsx, pagedFromBytes: 0 });
    const runs = reader.listRuns({ limit: 20 });
    assert.equal(runs[0]!.goal, 'run 399');
    const listed = bytesRead();
    const hits = reader.search('marker7z3');
    const searched = bytesRead() - listed;
    assert.equal(hits.length, 1);
    assert.match(hits[0]!.detail, /marker7z3/);
    assert.equal(reader.getRun(hits[0]!.runId!)?.run.goal, 'run 7');
    reader.close();
    process.stderr.write(`opened and listed: ${listed} bytes, searched: ${searched} bytes, of ${size}\n`);
    assert.ok(listed < size / 10, `opening and listing read ${listed} of ${size} bytes`);
    assert.ok(searched < size / 10, `a search read ${searched} of ${size} bytes`);
  });

  test('a fold writes the paged database from its pages: the new file holds everything and passes quick_check', async (t) => {
    const db = path.join(tempDir(t), 'history.db');
    const first = await HistoryEngine.open({ path: db, journalFoldBytes: 0 });
    for (let r = 0; r < 30; r++)
      first.recordObservation({
        runId: first.startRun({ goal: `old ${r}` }),
        tool: 't',
        insight: 'i',
        result: `old result ${r} ${'x '.repeat(500)}`,
        isError: false,
      });
    first.close();
    const paged = await HistoryEngine.open({ path: db, journalFoldBytes: 0, pagedFromBytes: 0 });
    const runId = paged.startRun({ goal: 'new run' });
    paged.recordObservation({ runId, tool: 't', insight: 'i', result: `new result ${'y '.repeat(500)}`, isError: false });
    paged.flush(); // folds: written from the pages, then read again from the new file
    paged.recordObservation({ runId, tool: 't', insight: 'i', result: `after the fold ${'z '.repeat(50)}`, isError: false });
    paged.close();
    const SQL = await loadSqlJs();
    const whole = new SQL.Database(fs.readFileSync(db));
    assert.equal(rows(whole, 'PRAGMA quick_check'), JSON.stringify([{ columns: ['quick_check'], values: [['ok']] }]));
    assert.equal(rows(whole, 'SELECT count(*) FROM runs'), JSON.stringify([{ columns: ['count(*)'], values: [[31]] }]));
    whole.close();
    const again = await HistoryEngine.open({ path: db, pagedFromBytes: 0 });
    assert.equal(again.search('fold').length, 1);
    assert.equal(again.listRuns({ limit: 50 }).length, 31);
    again.close();
  });
});
