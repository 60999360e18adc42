/**
 * Start-up benchmark: `npm run bench:startup` (after a build). What loading PatchPilot costs before it
 * does anything, in CPU time, against a bare `node -e 0` (the floor):
 *  - requiring dist/extension.js, up to (not including) activate(): the bundle's own evaluation
 *  - `patchpilot --help` and `patchpilot run --help`: the whole process
 * Every case runs BENCH_RUNS times (default 15), interleaved so a busy moment hits all of them alike;
 * the table gives medians. test/support/loadProbe.cjs does the measuring inside each process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(__dirname, '../..');
const probe = path.join(repo, 'test/support/loadProbe.cjs');
const runs = Number(process.env.BENCH_RUNS ?? 15);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-startup-'));

interface Case {
  name: string;
  args: string[];
  bundle?: string;
}
const cli = path.join(repo, 'dist/cli.js');
const extension = path.join(repo, 'dist/extension.js');
const cases: Case[] = [
  { name: '`node -e 0` (floor)', args: ['-e', '0'] },
  { name: 'require dist/extension.js (before activate)', args: ['-e', '0'], bundle: extension },
  { name: '`patchpilot --help`', args: [cli, '--help'] },
  { name: '`patchpilot run --help`', args: [cli, 'run', '--help'] },
];

interface Sample {
  processCpuMs: number;
  bundleCpuMs?: number;
  loaded: string[];
}

function measure(c: Case): Sample {
  const out = path.join(scratch, 'probe.json');
  const env = { ...process.env, PP_LOAD_PROBE_OUT: out, PP_LOAD_PROBE_BUNDLE: c.bundle ?? '' };
  const result = spawnSync(process.execPath, ['--require', probe, ...c.args], { cwd: scratch, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${c.name} failed (exit ${result.status}): ${result.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as Sample;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  const samples = new Map<Case, Sample[]>(cases.map((c) => [c, []]));
  for (let i = 0; i < runs; i++) for (const c of cases) samples.get(c)!.push(measure(c));
  const floor = median(samples.get(cases[0]!)!.map((s) => s.processCpuMs));
  const lazy = (s: Sample) => s.loaded.filter((f) => f.includes(`${path.sep}lazy${path.sep}`)).length;
  console.log(`Start-up CPU, median of ${runs} runs (node ${process.version}, ${os.cpus().length} cores)\n`);
  console.log('| what | process CPU | x floor | bundle evaluation CPU | lazy chunks loaded |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const c of cases) {
    const all = samples.get(c)!;
    const cpu = median(all.map((s) => s.processCpuMs));
    const bundle = c.bundle ? `${median(all.map((s) => s.bundleCpuMs ?? 0)).toFixed(0)} ms` : 'n/a';
    console.log(`| ${c.name} | ${cpu.toFixed(0)} ms | ${(cpu / floor).toFixed(2)} | ${bundle} | ${lazy(all[0]!)} |`);
  }
  const size = (f: string) => `${(statSync(f).size / 1048576).toFixed(2)} MB`;
  console.log(`\ndist/extension.js ${size(extension)}, dist/cli.js ${size(cli)}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
