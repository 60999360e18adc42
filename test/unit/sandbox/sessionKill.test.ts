import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import { probeSandbox, runCommand } from '../../../src/core/sandbox';

/**
 * Issue #6: "a double-forked process outlived the run". Real processes, checked in /proc: after the
 * command returns, nothing it started may run, whichever way it left its parent.
 */
const linux = process.platform === 'linux' ? false : 'reads /proc (Linux only)';
const sandbox = probeSandbox();

let ws: string;
before(() => {
  ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-sessionkill-')));
});
after(() => rmSync(ws, { recursive: true, force: true }));

/** Live (non-zombie) processes whose command line contains the marker. */
function alive(marker: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
      if (state !== 'Z' && readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(marker)) out.push(Number(e));
    } catch {
      /* exited */
    }
  }
  return out;
}

let n = 0;
/** A sleep duration nobody else uses, so its command line identifies our process. */
const uniqueSleep = () => `${800 + n++}.${process.pid % 100000}`;

const ESCAPES: [title: string, make: (s: string) => string][] = [
  ['double fork with setsid', (s) => `(setsid sleep ${s} &); echo started`],
  ['nohup in the background', (s) => `nohup sleep ${s} >/dev/null 2>&1 & echo started`],
  ['setsid -f', (s) => `setsid -f sleep ${s} >/dev/null 2>&1; echo started`],
  [
    "a node child spawned detached and unref'd",
    (s) => `node -e "require('child_process').spawn('sleep',['${s}'],{detached:true,stdio:'ignore'}).unref()"; echo started`,
  ],
  ['a daemon that closes its pipes and double-forks', (s) => `(setsid sh -c 'sleep ${s}' </dev/null >/dev/null 2>&1 &) ; echo started`],
  // Issue 20, class 8: no session, no marker, no parent we saw. Only the command's cgroup holds these (commandCgroup.ts).
  ['env -i setsid in the background', (s) => `env -i setsid sleep ${s} >/dev/null 2>&1 & echo started`],
  ['env -i setsid, double-forked', (s) => `(env -i setsid sh -c 'sleep ${s} &' </dev/null >/dev/null 2>&1 &); echo started`],
  ['env -i setsid -f, after a pause so no scan sees it start', (s) => `env -i setsid -f sh -c 'sleep 0.3; exec sleep ${s}' >/dev/null 2>&1; echo started`],
];

type Runner = (command: string) => Promise<string>;
const RUNNERS: [name: string, run: Runner, skip: string | false][] = [
  ['run_command without sandbox', async (c) => (await runCommand({ command: c, cwd: ws, workspaceRoot: ws, sandbox: 'off' })).stdout, linux],
  [
    'run_command in bubblewrap',
    async (c) => (await runCommand({ command: c, cwd: ws, workspaceRoot: ws, sandbox: 'require' })).stdout,
    linux || (sandbox.available ? false : sandbox.message),
  ],
  ['test command (NodeTaskRunner)', async (c) => (await new NodeTaskRunner().run({ command: c, cwd: ws })).output, linux],
];

for (const [runnerName, run, skip] of RUNNERS) {
  describe(`nothing outlives its command: ${runnerName}`, () => {
    for (const [title, make] of ESCAPES) {
      test(title, { skip }, async () => {
        const s = uniqueSleep();
        const out = await run(make(s));
        assert.match(out, /started/);
        assert.deepEqual(alive(s), [], `still running after the command returned: ${title}`);
      });
    }
    test('a delayed write by an escaped process never happens', { skip }, async () => {
      const marker = path.join(ws, `late-${n++}`);
      await run(`(setsid sh -c 'sleep 1; touch ${marker}' &); nohup sh -c 'sleep 1; touch ${marker}' >/dev/null 2>&1 &`);
      await new Promise((r) => setTimeout(r, 1800));
      assert.equal(existsSync(marker), false);
    });
  });
}
