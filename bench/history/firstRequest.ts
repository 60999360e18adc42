/**
 * `npm run bench:history` (scale part): when a whole run's first model request leaves, with an empty
 * history and with the grown one in the workspace's state folder. The built CLI runs a one-step goal
 * against the scripted model server (test/support); the time is wall clock from the spawn to the
 * server seeing the request, so it holds everything before it (bundle load, wiring, the history's
 * open and the system prompt's history search). Interleaved, median of BENCH_TRIALS.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScriptedModelServer } from '../../test/support/scriptedModel';

const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds from the CLI's spawn to its first chat request, in a fresh workspace holding a copy of `db`. */
async function firstRequestMs(cli: string, db: string): Promise<number> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-first-'));
  const server = await ScriptedModelServer.start([{ reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'done' } }] } }]);
  try {
    mkdirSync(path.join(root, '.patchpilot'));
    for (const suffix of ['', '.journal']) if (existsSync(db + suffix)) copyFileSync(db + suffix, path.join(root, '.patchpilot', `history.db${suffix}`));
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const started = Date.now();
    let first: number | undefined;
    const poll = setInterval(() => (first ??= server.chatRequests.length > 0 ? Date.now() - started : undefined), 5);
    const args = [
      'run',
      '--goal',
      'say done',
      '--workspace',
      root,
      '--approve',
      'auto',
      '--trust-workspace',
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
    ];
    const child = spawn(process.execPath, [cli, ...args, '--json'], { stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearInterval(poll);
    if (code !== 0 || first === undefined) throw new Error(`the run on ${db} ended with ${code} before its first request was timed`);
    return first;
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** A table row (the scale table's columns): the first request's median wall time, empty against grown. */
export async function firstRequestRow(label: string, checkout: string, emptyDb: string, grownDb: string): Promise<string> {
  const cli = path.join(checkout, 'dist/cli.js');
  const empty: number[] = [];
  const grown: number[] = [];
  for (let i = 0; i < TRIALS; i++) {
    empty.push(await firstRequestMs(cli, emptyDb));
    grown.push(await firstRequestMs(cli, grownDb));
  }
  const [e, g] = [median(empty), median(grown)];
  return `| ${label} | a run's first model request through the CLI (wall, from the spawn) | ${e} ms | ${g} ms | ${(g / e).toFixed(2)}x | - |`;
}
