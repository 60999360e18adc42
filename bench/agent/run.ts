/**
 * Agent loop benchmark: `npm run bench:agent`. Prints a table (copied into README).
 *  (a) steps per second end to end: the scripted model server (no delays) replaying STEPS read-only
 *      tool steps (read_file / grep) through the real ModelClient, real tools and a history store;
 *      and the same script through the built CLI binary (process start-up included).
 *  (b) the orchestrator's own time per step, model and tools excluded: an in-process instant model
 *      and no-op tools, with no history, an empty one, and one pre-filled with 100,000 rows, on the
 *      main thread (in-process store) and in a worker.
 *  (c) the share of prompt tokens reusable as a provider's cached prefix over a 40-step run, at 8k,
 *      32k and 128k windows (cachePrefix.ts).
 *  (d) a command step's own cost (protected guard, checkpoint) and a restore at 1k/10k/100k files (checkpoints.ts).
 *  (e) a workspace's first checkpoint beside shadow git's and OpenCode's snapshot (firstCheckpoint.ts).
 * Env: BENCH_STEPS (default 200), BENCH_ROWS (default 100000), BENCH_PART=cache, checkpoints or
 * first-checkpoint for table (c), (d) or (e) alone (the 100k row of (e):
 * BENCH_PART=first-checkpoint BENCH_FIRST_SIZES=100000, see firstCheckpoint.ts for its other settings).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../src/core/config/settings';
import { openHistoryStore, type HistoryStore } from '../../src/core/history';
import { ModelClient } from '../../src/core/llm';
import { Orchestrator } from '../../src/core/orchestrator';
import type { ChatModel } from '../../src/core/ports';
import { createToolRegistry } from '../../src/core/tools';
import { NodeWorkspaceFs } from '../../src/host/node/nodeWorkspaceFs';
import type { ToolRegistry } from '../../src/core/tools/registry';
import { NodeTaskRunner } from '../../src/cli/node/nodeTaskRunner';
import { ScriptedModelServer, type ScriptedTurn } from '../../test/support/scriptedModel';
import { StepMeter, instantModel, loopBlockProbe, noopTools, percentile } from './instant';
import { cachePrefixTable } from './cachePrefix';
import { checkpointTable } from './checkpoints';
import { firstCheckpointTable } from './firstCheckpoint';
import { installHistory, prefilledHistory } from './prefill';

const STEPS = Number(process.env.BENCH_STEPS ?? 200);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CLI = path.resolve(__dirname, '../../dist/cli.js');
const log = (m: string) => process.stderr.write(`${m}\n`);

type Row = { what: string; history: string; stepsPerSec: string; setup: string; ownP50: string; ownP95: string; ownMax: string; block: string };
const rows: Row[] = [];
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 2 : 1)} ms` : 'n/a');

function workspace(): { root: string; cleanup(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-agent-'));
  mkdirSync(path.join(root, 'src'));
  for (let i = 0; i < 40; i++) {
    writeFileSync(
      path.join(root, 'src', `f${i}.ts`),
      Array.from({ length: 60 }, (_, l) => `export const needle${(i + l) % 17}_${l} = ${l}; // file ${i}`).join('\n') + '\n',
    );
  }
  const git = (...a: string[]) => execFileSync('git', a, { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'bench');
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function settings(): PatchPilotSettings {
  const s = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
  s.approval.mode = 'auto-edit';
  s.limits.maxSteps = STEPS + 5;
  return s;
}

function script(): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < STEPS; i++) {
    const call = i % 2 ? { name: 'grep', arguments: { pattern: `needle${i % 17}_` } } : { name: 'read_file', arguments: { path: `src/f${i % 40}.ts` } };
    turns.push({ reply: { text: 'Looking.', toolCalls: [call] } });
  }
  turns.push({ reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'done' } }] } });
  return turns;
}

type HistoryKind = 'none' | 'main-thread, empty' | 'main-thread, 100k rows' | 'worker, empty' | 'worker, 100k rows';

async function openHistory(kind: HistoryKind, root: string, prefilled: string): Promise<HistoryStore | undefined> {
  if (kind === 'none') return undefined;
  if (kind.includes('100k')) installHistory(prefilled, root);
  return openHistoryStore({ workspace: root, mode: kind.startsWith('worker') ? 'worker' : 'in-process', exitHook: false });
}

async function measure(
  what: string,
  kind: HistoryKind,
  prefilled: string,
  model: (root: string) => Promise<{ model: ChatModel; tools: ToolRegistry; close(): Promise<void> }>,
): Promise<void> {
  const ws = workspace();
  const history = await openHistory(kind, ws.root, prefilled);
  const parts = await model(ws.root);
  try {
    const meter = new StepMeter();
    const orchestrator = new Orchestrator({
      root: ws.root,
      fs: new NodeWorkspaceFs(ws.root),
      settings: settings(),
      model: meter.wrapModel(parts.model),
      tools: meter.wrapTools(parts.tools),
      approver: { approvePatch: async () => ({ acceptedHunks: [] }), approveAction: async () => ({ approved: false }) },
      tasks: new NodeTaskRunner(),
      history,
      onEvent: meter.onEvent,
    });
    const stopProbe = loopBlockProbe();
    const t0 = performance.now();
    const outcome = await orchestrator.run('benchmark: read around');
    const setupMs = meter.firstStepAt - t0;
    const block = stopProbe();
    if (outcome.status !== 'finished') throw new Error(`${what}: run ended ${outcome.status}: ${outcome.reason}`);
    const t = meter.times();
    const row: Row = {
      what,
      history: kind,
      stepsPerSec: (outcome.steps / meter.loopSeconds).toFixed(0),
      setup: ms(setupMs),
      ownP50: ms(percentile(t.own, 50)),
      ownP95: ms(percentile(t.own, 95)),
      ownMax: ms(Math.max(...t.own)),
      block: ms(block),
    };
    rows.push(row);
    log(
      `  ${what} / ${kind}: ${row.stepsPerSec} steps/s, set-up ${row.setup}, own p50 ${row.ownP50}, p95 ${row.ownP95}, max ${row.ownMax}, longest loop block ${row.block}`,
    );
  } finally {
    await history?.close();
    await parts.close();
    ws.cleanup();
  }
}

async function scriptedClient(): Promise<{ model: ChatModel; tools: ToolRegistry; close(): Promise<void> }> {
  const server = await ScriptedModelServer.start(script());
  return {
    model: new ModelClient({ baseUrl: server.baseUrl, model: 'scripted-model' }),
    tools: createToolRegistry({ history: true }),
    close: () => server.close(),
  };
}

const instant =
  (latencyMs = 0) =>
  async (): Promise<{ model: ChatModel; tools: ToolRegistry; close(): Promise<void> }> => ({
    model: instantModel(STEPS, latencyMs),
    tools: noopTools(),
    close: async () => {},
  });

/** The built CLI against the scripted server: what a user's `patchpilot run` costs per step, start-up included. */
async function cliRun(): Promise<void> {
  const ws = workspace();
  const server = await ScriptedModelServer.start(script());
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, PATCHPILOT_API_KEY: 'bench' };
    delete env.NODE_TEST_CONTEXT;
    const t0 = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          CLI,
          'run',
          '--goal',
          'benchmark',
          '--workspace',
          ws.root,
          '--approve',
          'auto-edit',
          '--max-steps',
          String(STEPS + 5),
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
          '--json',
        ],
        { env, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      child.on('close', resolve);
    });
    const seconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`the CLI exited ${code}`);
    rows.push({
      what: `(a) built CLI binary, scripted server, real tools (${STEPS + 1} steps, start-up included)`,
      history: 'worker, empty',
      stepsPerSec: ((STEPS + 1) / seconds).toFixed(0),
      setup: 'n/a',
      ownP50: 'n/a',
      ownP95: 'n/a',
      ownMax: 'n/a',
      block: 'n/a',
    });
    log(`  CLI: ${(STEPS + 1) / seconds} steps/s`);
  } finally {
    await server.close();
    ws.cleanup();
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_PART === 'cache') {
    console.log(await cachePrefixTable(log));
    return;
  }
  if (process.env.BENCH_PART === 'checkpoints') {
    console.log(await checkpointTable(log));
    return;
  }
  if (process.env.BENCH_PART === 'first-checkpoint') {
    console.log(await firstCheckpointTable(log));
    return;
  }
  log(`agent benchmark: ${STEPS} tool steps per run, history of ${ROWS.toLocaleString('en')} rows`);
  const prefilled = await prefilledHistory(ROWS, log);
  for (const kind of ['main-thread, empty', 'worker, empty', 'main-thread, 100k rows', 'worker, 100k rows'] as const) {
    await measure('(a) scripted server over HTTP, real ModelClient and tools', kind, prefilled, scriptedClient);
  }
  await cliRun();
  for (const kind of ['none', 'main-thread, empty', 'worker, empty', 'main-thread, 100k rows', 'worker, 100k rows'] as const) {
    await measure('(b) instant in-process model, no-op tools', kind, prefilled, instant());
  }
  // An instant run is over before the store's first debounced save (1-2 s): with 10 ms of model time per step the saves happen mid-run.
  for (const kind of ['main-thread, 100k rows', 'worker, 100k rows'] as const) {
    await measure('(b) in-process model answering after 10 ms, no-op tools', kind, prefilled, instant(10));
  }

  const head: Row = {
    what: 'setup',
    history: 'history store',
    stepsPerSec: 'steps/s',
    setup: 'run set-up',
    ownP50: 'own p50',
    ownP95: 'own p95',
    ownMax: 'own max',
    block: 'longest loop block',
  };
  const keys = Object.keys(head) as (keyof Row)[];
  const width = (k: keyof Row) => Math.max(...[head, ...rows].map((r) => r[k].length));
  const line = (r: Row) => `| ${keys.map((k) => r[k].padEnd(width(k))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${keys.map((k) => '-'.repeat(width(k) + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\nsteps/s: from the first step to the end of the run (set-up before step 1 shown apart; the CLI row: whole process).`);
  console.log(`"own" = a step's wall time minus the time inside the model call and the tool calls (the last step, which closes the run, left out).`);
  console.log(`\n(c) prompt tokens reusable as a provider's cached prefix, 40 read_file steps of ~650 tokens, the window reported by the endpoint:`);
  console.log(await cachePrefixTable(log));
  console.log(`\n(d) a command step's own cost and its checkpoint, by workspace size:`);
  console.log(await checkpointTable(log));
  console.log(`\n(e) the first checkpoint of a workspace beside shadow git and git write-tree:`);
  console.log(await firstCheckpointTable(log));
  console.log(`node ${process.version}, ${os.cpus().length} cpu(s) (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg()[0]!.toFixed(1)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
