import assert from 'node:assert/strict';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeTaskRunner } from '../../../../src/cli/node/nodeTaskRunner';
import { runCommand } from '../../../../src/core/policy/exec';
import { CommandCgroup, ownCgroupDir } from '../../../../src/core/policy/exec/commandCgroup';

/**
 * Issue 20, class 8: every command runs in a cgroup of its own where cgroups v2 can be used, and a
 * command still runs, tracked as before, where they cannot. Real processes, real cgroup files.
 */
const linux = process.platform === 'linux' ? false : 'cgroups are Linux only';
const own = ownCgroupDir();
const writable = (() => {
  try {
    if (!own) return false;
    accessSync(own, constants.W_OK);
    const probe = CommandCgroup.create();
    return probe ? probe.remove() : false;
  } catch {
    return false;
  }
})();
const noCgroupHere = linux || (writable ? false : `this process's cgroup (${own ?? 'no cgroup2 mount'}) is not writable`);

let ws: string;
let plainFolder: string;
before(() => {
  ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-cgroup-ws-')));
  plainFolder = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-cgroup-plain-')));
});
after(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(plainFolder, { recursive: true, force: true });
});

/** Not writable, not a cgroup, not there: each must fall back to running the command as before. */
const UNUSABLE_ROOTS: [string, () => string][] = [
  ['a folder that cannot be written (/proc/self)', () => '/proc/self'],
  ['a writable folder that is not a cgroup', () => plainFolder],
  ['a folder that does not exist', () => path.join(plainFolder, 'missing', 'deeper')],
];

describe('a cgroup per command', () => {
  test('a command runs in a fresh cgroup below ours, removed when the command is done', { skip: noCgroupHere }, async () => {
    const r = await runCommand({ command: 'cat /proc/self/cgroup', cwd: ws, workspaceRoot: ws, sandbox: 'off' });
    assert.equal(r.exitCode, 0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('0::'))!;
    const name = path.basename(line.slice(3));
    assert.match(name, /^patchpilot-cmd-/);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(!readdirSync(own!).includes(name), 'the cgroup was removed');
  });

  for (const [what, root] of UNUSABLE_ROOTS) {
    test(`cgroups unavailable (${what}): commands and test commands still run`, { skip: linux }, async () => {
      const cgroupRoot = root();
      const r = await runCommand({ command: 'echo out; echo err >&2; exit 3', cwd: ws, workspaceRoot: ws, sandbox: 'off', cgroupRoot });
      assert.deepEqual([r.stdout, r.stderr, r.exitCode], ['out\n', 'err\n', 3]);
      const t = await new NodeTaskRunner({ cgroupRoot }).run({ command: 'echo tests pass', cwd: ws });
      assert.deepEqual([t.output, t.exitCode], ['tests pass\n', 0]);
      // Background jobs are still killed the old way (session, marker).
      const marker = `7${process.pid % 1000}.5`;
      await runCommand({ command: `sleep ${marker} & echo started`, cwd: ws, workspaceRoot: ws, sandbox: 'off', cgroupRoot });
      assert.deepEqual(alive(marker), []);
      assert.deepEqual(readdirSync(plainFolder), [], 'nothing left in a folder that is not a cgroup');
    });
  }

  test('cgroupRoot false: no cgroup, the command runs', { skip: linux }, async () => {
    const r = await runCommand({ command: 'cat /proc/self/cgroup', cwd: ws, workspaceRoot: ws, sandbox: 'off', cgroupRoot: false });
    assert.doesNotMatch(r.stdout, /patchpilot-cmd-/);
  });
});

function alive(marker: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z' && readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(marker)) out.push(Number(e));
    } catch {
      /* exited */
    }
  }
  return out;
}
