/**
 * (d) A command step's cost to PatchPilot itself at 1k, 10k and 100k workspace files: the protected
 * guard (runCommand `true` minus the bare bwrap/bash spawn), the checkpoint around the step (first
 * capture of a workspace, then a steady step whose command writes one file), the bytes a step adds
 * to the store, and a restore to before step 1. BENCH_SIZES overrides the sizes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Checkpointer, planRestore, restore } from '../../src/core/checkpoint';
import { probeSandbox, runCommand } from '../../src/core/policy/exec';
import { bwrapArguments } from '../../src/core/policy/exec/bwrapArgs';

const SIZES = (process.env.BENCH_CHECKPOINT_SIZES ?? '1000,10000,100000').split(',').map(Number);
const REPEAT = 5;

function workspace(files: number): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-ckpt-'));
  const perDir = 20;
  for (let i = 0; i < files / perDir; i++) {
    const dir = path.join(root, 'src', `pkg${i}`);
    mkdirSync(dir, { recursive: true });
    for (let j = 0; j < perDir; j++) writeFileSync(path.join(dir, `f${j}.js`), `module.exports = ${i * perDir + j};\n`);
  }
  return root;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

async function timeMedian(fn: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

export async function checkpointTable(log: (m: string) => void): Promise<string> {
  const sandbox = probeSandbox();
  const rows: string[][] = [];
  for (const size of SIZES) {
    log(`checkpoints: ${size} files`);
    const root = workspace(size);
    try {
      const env = { PATH: process.env.PATH ?? '' };
      const bare = sandbox.available
        ? await timeMedian(() =>
            spawnSync(sandbox.bwrapPath!, bwrapArguments({ workspaceRoot: root, cwd: root, homeDirs: [os.homedir()], allowNetwork: false }, 'true'), { env }),
          )
        : await timeMedian(() => spawnSync('bash', ['-c', 'true'], { env }));
      const guarded = await timeMedian(() => runCommand({ command: 'true', cwd: root, workspaceRoot: root }));
      const walking = new Checkpointer({ root, stateDir: path.join(root, '.patchpilot'), maxBytes: 4 * 1024 ** 3, ignored: () => () => false, watch: false });
      const cp = new Checkpointer({ root, stateDir: path.join(root, '.patchpilot'), maxBytes: 4 * 1024 ** 3, ignored: () => () => false });
      let step = 0;
      const commandStep = async (c = cp) => {
        step++;
        const open = await c.begin({ runId: 'bench', step, tool: 'run_command', scope: 'workspace' });
        writeFileSync(path.join(root, `out${step}.txt`), `step ${step}\n`);
        writeFileSync(path.join(root, 'src', 'pkg0', 'f0.js'), `module.exports = 'step ${step}';\n`);
        await open!.end();
        return c.last!;
      };
      const baseline = await commandStep(walking); // the store's first copy of the workspace
      const first = await commandStep(); // a new run's first step: a walk (the stat cache spares the reads), the feed starts
      const walkSteps: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const s = await commandStep(walking);
        walkSteps.push(s.beginMs + s.endMs);
      }
      const steady: { ms: number; bytes: number }[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const s = await commandStep();
        steady.push({ ms: s.beginMs + s.endMs, bytes: s.addedBytes });
      }
      const captureMs = median(steady.map((s) => s.ms));
      const t = performance.now();
      const plan = planRestore(cp.store, root, 'bench', 1);
      const result = restore(cp.store, root, plan);
      const restoreMs = performance.now() - t;
      cp.dispose();
      if (!result.ok) throw new Error(result.reason);
      rows.push([
        size.toLocaleString('en'),
        ms(guarded - bare),
        `${ms(first.beginMs + first.endMs)} (store empty: ${ms(baseline.beginMs + baseline.endMs)})`,
        `${(baseline.addedBytes / 1024).toFixed(0)} KiB`,
        ms(median(walkSteps)),
        ms(captureMs),
        `${median(steady.map((s) => s.bytes))} B`,
        ms(guarded - bare + captureMs),
        `${ms(restoreMs)} (${plan.items.length} files)`,
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const head = [
    'files',
    'guard (2 walks)',
    'first checkpoint of a run',
    'bytes added',
    'checkpoint per step, walking',
    'checkpoint per step, change feed',
    'bytes per step',
    'own time per command step (guard + feed)',
    'restore to step 1',
  ];
  return [
    `sandbox: ${sandbox.available ? 'bubblewrap' : 'none'}; median of ${REPEAT}; a step's command writes one new file and edits one`,
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
