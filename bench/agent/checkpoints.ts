/**
 * (d) A command step's cost to PatchPilot itself at 1k, 10k and 100k workspace files, wired as the
 * agent wires it (wireAgent): one change feed read by the checkpointer and the protected guard's
 * baseline. A step is a sandboxed `ls` that also writes one new file and edits one, run by runCommand
 * as run_command runs it in auto mode (no approval asked), between the checkpoint's begin and end.
 * "Own time" = the step's wall time minus the same command in a bare bwrap (bash without a sandbox)
 * run right after it (the median of those differences).
 * Also: the same step with the guard walking (no baseline: the figure before the guard used the feed),
 * the checkpoint's share and the bytes it adds, the first checkpoint of a run (and with an empty
 * store), and a restore to before step 1. BENCH_CHECKPOINT_SIZES overrides the sizes; BENCH_CHECKPOINT_QUICK=1
 * leaves out the walking step and the empty store's first copy.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Checkpointer, planRestore, restore } from '../../src/core/checkpoint';
import { ChangeFeed } from '../../src/core/fs/changeFeed';
import { probeSandbox, runCommand } from '../../src/core/sandbox';
import { bwrapArguments } from '../../src/core/sandbox/bwrapArgs';
import { GuardBaseline } from '../../src/core/sandbox/guardBaseline';

const SIZES = (process.env.BENCH_CHECKPOINT_SIZES ?? '1000,10000,100000').split(',').map(Number);
const REPEAT = 5;
/** The walking guard costs seconds a step at 100k files: fewer samples. */
const REPEAT_WALK = 3;
const QUICK = process.env.BENCH_CHECKPOINT_QUICK === '1';

function workspace(files: number): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-bench-ckpt-')));
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

async function timeMedian(fn: () => Promise<unknown> | unknown, repeat = REPEAT): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

export async function checkpointTable(log: (m: string) => void): Promise<string> {
  const sandbox = probeSandbox();
  const rows: string[][] = [];
  const ratio: number[] = [];
  for (const size of SIZES) {
    log(`checkpoints: ${size} files`);
    const root = workspace(size);
    const stateDir = path.join(root, '.patchpilot');
    const feed = new ChangeFeed(root, path.join(stateDir, 'checkpoints', 'feed'), '.patchpilot');
    const baseline = new GuardBaseline(feed);
    try {
      let step = 0;
      const command = () => {
        step++;
        return `ls > /dev/null && echo ${step} > out${step}.txt && echo "module.exports = 'step ${step}';" > src/pkg0/f0.js`;
      };
      const env = { PATH: process.env.PATH ?? '' };
      // The bare command writes the same files in a scratch folder of its own (the run's restore must find the workspace as the steps left it).
      const bareCommand = `ls > /dev/null && echo 0 > out0.txt && echo "module.exports = 'step 0';" > src/pkg0/f0.js`;
      const scratch = path.join(root, '..', `${path.basename(root)}-bare`);
      mkdirSync(path.join(scratch, 'src', 'pkg0'), { recursive: true });
      const bareOnce = () =>
        sandbox.available
          ? spawnSync(
              sandbox.bwrapPath!,
              bwrapArguments({ workspaceRoot: scratch, cwd: scratch, homeDirs: [os.homedir()], allowNetwork: false }, bareCommand),
              {
                env,
              },
            )
          : spawnSync('bash', ['-c', bareCommand], { env, cwd: scratch });
      const bare = await timeMedian(bareOnce);
      const guardOptions = { root, ignored: () => () => false };
      const walking = new Checkpointer({ root, stateDir, maxBytes: 4 * 1024 ** 3, ignored: () => () => false, watch: false });
      const cp = new Checkpointer({ root, stateDir, maxBytes: 4 * 1024 ** 3, ignored: () => () => false, feed });
      /** One command step: checkpoint begin, the command with its guard, checkpoint end. */
      const commandStep = async (c: Checkpointer, withBaseline: boolean) => {
        const t = performance.now();
        const open = await c.begin({ runId: 'bench', step: step + 1, tool: 'run_command', scope: 'workspace' });
        const r = await runCommand({ command: command(), cwd: root, workspaceRoot: root, guard: { ...guardOptions, ...(withBaseline ? { baseline } : {}) } });
        if (r.exitCode !== 0) throw new Error(`the step's command failed: ${r.stderr}`);
        await open!.end();
        const wall = performance.now() - t;
        // The same command bare, right after: on a shared machine the spawn's own cost drifts with the load.
        const b = performance.now();
        bareOnce();
        return { wall, own: wall - (performance.now() - b), capture: c.last!.beginMs + c.last!.endMs, bytes: c.last!.addedBytes };
      };
      // QUICK: without the walking figures (the store's first copy of 100k files takes minutes on a loaded machine).
      const baseFirst = QUICK ? undefined : await commandStep(walking, false); // the store's first copy of the workspace
      const walkSteps: { own: number }[] = [];
      for (let i = 0; i < (QUICK ? 0 : REPEAT_WALK); i++) walkSteps.push(await commandStep(walking, false));
      const first = await commandStep(cp, true); // a run's first step: the checkpoint and the guard walk once, the feed starts
      const steady: { own: number; capture: number; bytes: number }[] = [];
      for (let i = 0; i < REPEAT; i++) steady.push(await commandStep(cp, true));
      const t = performance.now();
      const plan = planRestore(cp.store, root, 'bench', 1);
      const result = restore(cp.store, root, plan);
      const restoreMs = performance.now() - t;
      cp.dispose();
      if (!result.ok) throw new Error(result.reason);
      const own = median(steady.map((s) => s.own));
      ratio.push(own);
      rows.push([
        size.toLocaleString('en'),
        ms(bare),
        walkSteps.length ? ms(median(walkSteps.map((s) => s.own))) : 'not run',
        ms(own),
        ms(median(steady.map((s) => s.capture))),
        `${median(steady.map((s) => s.bytes))} B`,
        `${ms(first.own)} (checkpoint ${ms(first.capture)}${baseFirst ? `; store empty: ${ms(baseFirst.capture)}, ${(baseFirst.bytes / 1024).toFixed(0)} KiB` : ''})`,
        `${ms(restoreMs)} (${plan.items.length} files)`,
      ]);
    } finally {
      baseline.dispose();
      feed.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(`${root}-bare`, { recursive: true, force: true });
    }
  }
  const head = [
    'files',
    `bare ${sandbox.available ? 'bwrap' : 'bash'} step`,
    'own time per step, guard walking (before)',
    'own time per step, guard and checkpoint on the feed',
    'of which checkpoint',
    'checkpoint bytes per step',
    "a run's first step (walks once)",
    'restore to step 1',
  ];
  return [
    `sandbox: ${sandbox.available ? 'bubblewrap' : 'none'}; median of ${REPEAT} (walking: ${REPEAT_WALK}); a step is \`ls\` writing one new file and editing one`,
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    ratio.length > 1
      ? `own time per step at ${SIZES.at(-1)!.toLocaleString('en')} files / at ${SIZES[0]!.toLocaleString('en')}: ${(ratio.at(-1)! / ratio[0]!).toFixed(2)}x`
      : '',
  ].join('\n');
}
