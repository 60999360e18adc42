/**
 * `npm run bench:history` part 2: what a grown history costs. An empty history (one run) against
 * 5,000 runs with 100,000 observations (~130 MB), side by side, for `patchpilot history list`, a
 * `history search` and the history part of a run's start (open the store, start the run, first
 * step; then finish and close), each in a fresh process measured by /usr/bin/time (CPU = user +
 * system, peak RSS; the worker thread is in the same process). The native `sqlite3` command on the
 * same file is the floor. BENCH_BEFORE=/path/to/an/older/checkout (built) adds its numbers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { HistoryEngine } from '../../src/core/history/engine';

interface Cost {
  cpuMs: number;
  rssMb: number;
  startMs?: number;
}

const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const vocab = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}${['parse', 'date', 'test', 'fix', 'tz', 'json'][i % 6]}`);
const words = (n: number) => Array.from({ length: n }, () => vocab[Math.floor(vocab.length * rand() ** 3)]!).join(' ');
export const SEARCH_WORD = vocab[40]!;

/** 5,000 finished runs of 20 observations each, written in one fold (no journal). */
export async function makeHistory(db: string, runs: number, perRun: number): Promise<void> {
  const engine = await HistoryEngine.open({ path: db, persistDelayMs: 600_000, maxPersistDelayMs: 600_000 });
  for (let r = 0; r < runs; r++) {
    const runId = engine.startRun({ goal: `run ${r}: ${words(6)}`, startedAt: Date.now() - (runs - r) * 60_000 });
    for (let i = 0; i < perRun; i++) {
      engine.recordObservation({ runId, tool: 'grep', insight: `insight ${words(8)}`, result: words(160), path: `src/f${i}.ts`, isError: false });
    }
    engine.finishRun(runId, { status: 'finished', steps: perRun });
  }
  engine.close();
}

function timed(cmd: string, args: string[]): Cost {
  const r = spawnSync('/usr/bin/time', ['-f', '@@ %U %S %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  const m = /@@ ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr)!;
  const start = /start-ms (\d+)/.exec(r.stdout);
  return { cpuMs: (Number(m[1]) + Number(m[2])) * 1000, rssMb: Number(m[3]) / 1024, ...(start ? { startMs: Number(start[1]) } : {}) };
}

function measure(cmd: string, args: string[]): Cost {
  const runs = Array.from({ length: TRIALS }, () => timed(cmd, args));
  const starts = runs.flatMap((r) => (r.startMs === undefined ? [] : [r.startMs]));
  return { cpuMs: median(runs.map((r) => r.cpuMs)), rssMb: median(runs.map((r) => r.rssMb)), ...(starts.length ? { startMs: median(starts) } : {}) };
}

/** Bundles the run-start probe against one checkout's source (its worker and sql.js wasm next to it). */
async function bundleProbe(root: string, out: string): Promise<string> {
  mkdirSync(out, { recursive: true });
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'error' } as const;
  const probe = `
    const { WorkerHistoryStore } = require(${JSON.stringify(path.join(root, 'src/core/history/workerStore'))});
    (async () => {
      const store = await WorkerHistoryStore.open({ path: process.argv[2], exitHook: false });
      const runId = await store.startRun({ goal: 'bench run' });
      await store.addStep(runId, { role: 'user', text: 'the task' });
      process.stdout.write('start-ms ' + Math.round(performance.now()) + '\\n');
      await store.addStep(runId, { role: 'assistant', text: 'done' });
      await store.finishRun(runId, { status: 'finished', steps: 1 });
      await store.close();
    })();`;
  await build({ ...common, stdin: { contents: probe, resolveDir: root, loader: 'js' }, outfile: path.join(out, 'probe.js') });
  await build({ ...common, entryPoints: [path.join(root, 'src/core/history/worker/historyWorker.ts')], outfile: path.join(out, 'historyWorker.js') });
  copyFileSync(path.join(root, 'node_modules/sql.js/dist/sql-wasm.wasm'), path.join(out, 'sql-wasm.wasm'));
  return path.join(out, 'probe.js');
}

export interface ScaleRow {
  what: string;
  empty: Cost;
  grown: Cost;
}

/** The three measurements for one checkout, on copies of the two databases. */
export async function measureCheckout(root: string, work: string, emptyDb: string, grownDb: string): Promise<ScaleRow[]> {
  const cli = path.join(root, 'dist/cli.js');
  const probe = await bundleProbe(root, path.join(work, 'probe'));
  const copy = (db: string, name: string) => {
    const to = path.join(work, name, 'history.db');
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(db, to);
    // One open first, as after any earlier use (the journal that lets later opens skip the check).
    execFileSync(process.execPath, [cli, 'history', 'list', '--db', to], { stdio: 'ignore' });
    return to;
  };
  const e = copy(emptyDb, 'empty');
  const g = copy(grownDb, 'grown');
  const rows: ScaleRow[] = [];
  const both = (what: string, args: (db: string) => string[], cmd = process.execPath) =>
    rows.push({ what, empty: measure(cmd, args(e)), grown: measure(cmd, args(g)) });
  both('history list', (db) => [cli, 'history', 'list', '--db', db]);
  both(`history search ${SEARCH_WORD}`, (db) => [cli, 'history', 'search', SEARCH_WORD, '--db', db]);
  const ino = statSync(g).ino;
  both("a run's start and end (history part)", (db) => [probe, db]);
  rows.at(-1)!.what += statSync(g).ino === ino ? ' — file not rewritten' : ' — file rewritten at every run end';
  return rows;
}

/** The floor: the sqlite3 command on the same files, when it is installed. */
export function measureSqlite3(emptyDb: string, grownDb: string): ScaleRow[] | undefined {
  if (!existsSync('/usr/bin/sqlite3')) return undefined;
  const q = (sql: string) => (db: string) => [db, sql];
  const list = q('SELECT id, goal, status, started_at FROM runs ORDER BY started_at DESC LIMIT 20');
  const search = q(`SELECT docid FROM observations_fts WHERE observations_fts MATCH '${SEARCH_WORD}' LIMIT 20`);
  return [
    { what: 'sqlite3: list query', empty: measure('/usr/bin/sqlite3', list(emptyDb)), grown: measure('/usr/bin/sqlite3', list(grownDb)) },
    { what: 'sqlite3: search query', empty: measure('/usr/bin/sqlite3', search(emptyDb)), grown: measure('/usr/bin/sqlite3', search(grownDb)) },
  ];
}

export function scaleTable(label: string, rows: ScaleRow[]): string {
  // /usr/bin/time counts CPU in 10 ms steps: under that it says 0.
  const f = (c: Cost) =>
    `${c.cpuMs < 10 ? '<10' : Math.round(c.cpuMs)} ms / ${Math.round(c.rssMb)} MB${c.startMs === undefined ? '' : ` / first step at ${c.startMs} ms`}`;
  const lines = rows.map(
    (r) =>
      `| ${label} | ${r.what} | ${f(r.empty)} | ${f(r.grown)} | ${r.empty.cpuMs < 10 ? '-' : `${(r.grown.cpuMs / r.empty.cpuMs).toFixed(2)}x`} | +${Math.round(r.grown.rssMb - r.empty.rssMb)} MB |`,
  );
  return lines.join('\n');
}
