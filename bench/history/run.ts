/**
 * History store benchmark: `npm run bench:history`. Prints a table (copied into README).
 *  - 100,000 observations through the async store API (worker) and straight into the engine
 *  - search p50/p95: FTS4 + BM25 vs a LIKE scan (what one would write without FTS)
 *  - export + persist time, file size, and the longest event-loop block of the caller while saving,
 *    worker-backed store vs in-process (main-thread export)
 *  - the same for a ~50 MB database
 *  - then (scale.ts) an empty history against 5,000 runs / 100,000 observations: `history list`, a
 *    search and a run's start, CPU and peak RSS, with the sqlite3 command as the floor; and
 *    (firstRequest.ts) when a whole CLI run's first model request leaves.
 *    BENCH_PART=scale runs only that part; BENCH_BEFORE=<built checkout> adds an older build's row.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { HistoryEngine } from '../../src/core/history/engine';
import { InProcessHistoryStore } from '../../src/core/history/inProcessStore';
import { WorkerHistoryStore } from '../../src/core/history/workerStore';
import { likeScan } from '../../src/core/history/search';
import type { HistoryStore } from '../../src/core/history';
import { firstRequestRow } from './firstRequest';
import { makeHistory, measureCheckout, measureSqlite3, scaleTable } from './scale';

const N = Number(process.env.BENCH_ROWS ?? 100_000);
const QUERIES = 200;

// Zipf-like vocabulary: a few very common words, a long tail of rare ones (like code and logs).
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const vocab = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}${['parse', 'date', 'test', 'fix', 'tz', 'json', 'http', 'cache'][i % 8]}`);
const word = () => vocab[Math.floor(vocab.length * rand() ** 3)]!;
const words = (n: number) => Array.from({ length: n }, word).join(' ');

function row(i: number, resultWords: number): [string, string, string, string] {
  return ['grep', `insight ${words(8)}`, `${words(resultWords)} line ${i}`, `src/f${i % 500}.ts`];
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const table: Array<[string, string, string]> = [];
const add = (what: string, value: string, note = '') => {
  table.push([what, value, note]);
  process.stderr.write(`  ${what}: ${value} ${note}\n`);
};

async function fill(store: HistoryStore, n: number, resultWords: number): Promise<number> {
  const t0 = performance.now();
  for (let start = 0; start < n; start += 1000) {
    const batch: Array<Promise<unknown>> = [];
    for (let i = start; i < Math.min(n, start + 1000); i++) {
      const [tool, insight, result, p] = row(i, resultWords);
      batch.push(store.recordObservation({ tool, insight, result, path: p, isError: false, time: Date.now() - (i % 90) * 86_400_000 }));
    }
    await Promise.all(batch);
  }
  return n / ((performance.now() - t0) / 1000);
}

/** Writes one row, then flushes while a 1 ms interval measures the caller's longest event-loop block (max gap between ticks). */
async function timedFlush(store: HistoryStore): Promise<{ flushMs: number; maxBlockMs: number }> {
  await store.recordObservation({ tool: 't', insight: 'one more', result: 'one more row so that the save has work to do', isError: false });
  let last = performance.now();
  let maxGap = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 20));
  maxGap = 0;
  const t0 = performance.now();
  await store.flush();
  const flushMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 20));
  clearInterval(tick);
  return { flushMs, maxBlockMs: maxGap };
}

async function main(): Promise<void> {
  if (process.env.BENCH_PART !== 'scale') await baseline();
  await scale();
}

async function scale(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-history-scale-'));
  try {
    const emptyDb = path.join(dir, 'src-empty', 'history.db');
    const grownDb = path.join(dir, 'src-grown', 'history.db');
    await makeHistory(emptyDb, 1, 0);
    const runs = Number(process.env.BENCH_RUNS ?? 5_000);
    process.stderr.write(`building a history of ${runs} runs x 20 observations...\n`);
    await makeHistory(grownDb, runs, 20);
    process.stderr.write(`  file ${mb(statSync(grownDb).size)}\n`);
    const out = ['| build | command | empty history: CPU / peak RSS | grown: CPU / peak RSS | CPU ratio | memory added |', '|---|---|---|---|---|---|'];
    const before = process.env.BENCH_BEFORE;
    if (before) out.push(scaleTable('before', await measureCheckout(before, path.join(dir, 'before'), emptyDb, grownDb)));
    out.push(scaleTable('now', await measureCheckout(path.resolve(__dirname, '../..'), path.join(dir, 'now'), emptyDb, grownDb)));
    if (before) out.push(await firstRequestRow('before', before, emptyDb, grownDb));
    out.push(await firstRequestRow('now', path.resolve(__dirname, '../..'), emptyDb, grownDb));
    const floor = measureSqlite3(emptyDb, grownDb);
    out.push(floor ? scaleTable('floor', floor) : '| floor | the sqlite3 command is not installed | | | | |');
    console.log(`\n${runs} runs, ${(runs * 20).toLocaleString('en')} observations, file ${mb(statSync(grownDb).size)}\n${out.join('\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function baseline(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-history-'));
  try {
    process.stderr.write(`history benchmark: ${N} observations in ${dir}\n`);
    // 1. Inserts through the real API (worker) and straight into the engine.
    const worker = await WorkerHistoryStore.open({
      path: path.join(dir, 'a', 'history.db'),
      exitHook: false,
      persistDelayMs: 60_000,
      maxPersistDelayMs: 60_000,
    });
    const rate = await fill(worker, N, 25);
    add('insert, async API via worker', `${Math.round(rate).toLocaleString('en')} rows/s`, `${N.toLocaleString('en')} observations`);

    const engine = await HistoryEngine.open({ path: path.join(dir, 'b', 'history.db'), persistDelayMs: 60_000, maxPersistDelayMs: 60_000 });
    let t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const [tool, insight, result, p] = row(i, 25);
      engine.recordObservation({ tool, insight, result, path: p, isError: false });
    }
    add('insert, engine direct (no messages)', `${Math.round(N / ((performance.now() - t0) / 1000)).toLocaleString('en')} rows/s`);

    // 2. Search.
    const queries = Array.from({ length: QUERIES }, (_, i) => (i % 2 ? `${word()} ${word()}` : word()));
    const fts: number[] = [];
    const like: number[] = [];
    const api: number[] = [];
    for (const q of queries) {
      t0 = performance.now();
      engine.search(q, { limit: 20 });
      fts.push(performance.now() - t0);
      t0 = performance.now();
      likeScan(engine.db.conn, q, 20);
      like.push(performance.now() - t0);
      t0 = performance.now();
      await worker.search(q, { limit: 20, days: 30 });
      api.push(performance.now() - t0);
    }
    add('search p50 / p95, FTS4 + BM25', `${ms(pct(fts, 50))} / ${ms(pct(fts, 95))}`, `${QUERIES} queries, top 20`);
    add('search p50 / p95, FTS4 + BM25 via worker API, --days 30', `${ms(pct(api, 50))} / ${ms(pct(api, 95))}`);
    add('search p50 / p95, LIKE scan (no index, no ranking)', `${ms(pct(like, 50))} / ${ms(pct(like, 95))}`);

    // 3. Persist the 100k database: worker vs in-process (main-thread export).
    const w = await timedFlush(worker);
    const size = statSync(path.join(dir, 'a', 'history.db')).size;
    add('persist (export + fsync + rename), worker', ms(w.flushMs), `file ${mb(size)}`);
    add('longest event-loop block while persisting, worker', ms(w.maxBlockMs));
    await worker.close();
    engine.close();
    const inproc = await InProcessHistoryStore.open({ path: path.join(dir, 'a', 'history.db'), exitHook: false });
    const ip = await timedFlush(inproc);
    add('persist, in-process (main thread)', ms(ip.flushMs));
    add('longest event-loop block while persisting, in-process', ms(ip.maxBlockMs));
    await inproc.close();

    // 4. A ~50 MB database: long results (2,000 characters) until the file is about 50 MB.
    const big = await WorkerHistoryStore.open({ path: path.join(dir, 'c', 'history.db'), exitHook: false, persistDelayMs: 60_000, maxPersistDelayMs: 60_000 });
    let filled = 0;
    while ((await big.stats()).memoryBytes < 50 * 1024 * 1024) {
      await fill(big, 2000, 300);
      filled += 2000;
    }
    const b = await timedFlush(big);
    const bigSize = statSync(path.join(dir, 'c', 'history.db')).size;
    add('persist ~50 MB database, worker', ms(b.flushMs), `file ${mb(bigSize)}, ${filled.toLocaleString('en')} rows`);
    add('longest event-loop block while persisting ~50 MB, worker', ms(b.maxBlockMs));
    const b2 = await timedFlush(big);
    add('persist ~50 MB again (reload-and-merge check + export + write)', ms(b2.flushMs));
    await big.close();
    const bigIp = await InProcessHistoryStore.open({ path: path.join(dir, 'c', 'history.db'), exitHook: false });
    const bi = await timedFlush(bigIp);
    add('persist ~50 MB, in-process (main thread)', ms(bi.flushMs));
    add('longest event-loop block while persisting ~50 MB, in-process', ms(bi.maxBlockMs));
    await bigIp.close();

    const w1 = Math.max(...table.map((r) => r[0].length));
    const w2 = Math.max(...table.map((r) => r[1].length));
    console.log(`| measurement${' '.repeat(w1 - 11)} | value${' '.repeat(w2 - 5)} | notes |`);
    console.log(`|${'-'.repeat(w1 + 2)}|${'-'.repeat(w2 + 2)}|-------|`);
    for (const [a, v, n] of table) console.log(`| ${a.padEnd(w1)} | ${v.padEnd(w2)} | ${n} |`);
    console.log(`\nnode ${process.version}, ${os.cpus().length} cpu(s) (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg()[0]!.toFixed(1)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
