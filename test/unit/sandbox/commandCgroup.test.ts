import assert from 'node:assert/strict';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import { runCommand } from '../../../src/core/sandbox';
import { cgroup2Mount, CommandCgroup, ownCgroupDir } from '../../../src/core/sandbox/commandCgroup';

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

  test('an empty cgroup left by a PatchPilot that died is removed by the next command; a live one is kept', { skip: noCgroupHere }, async () => {
    let dead = 4_000_000;
    while (existsSync(`/proc/${dead}`)) dead++;
    const stale = path.join(own!, `patchpilot-cmd-${dead}-0000`);
    const live = path.join(own!, `patchpilot-cmd-${process.ppid}-0000`);
    mkdirSync(stale);
    mkdirSync(live);
    try {
      await runCommand({ command: 'true', cwd: ws, workspaceRoot: ws, sandbox: 'off' });
      assert.equal(existsSync(stale), false);
      assert.equal(existsSync(live), true);
    } finally {
      for (const d of [stale, live]) if (existsSync(d)) rmdirSync(d);
    }
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

  test(
    'our cgroup not writable: a systemd-run --user --scope holds the command (a stand-in systemd on PATH that makes a real cgroup)',
    { skip: noCgroupHere },
    async () => {
      const mount = cgroup2Mount()!;
      const root = path.join(own!, `pp-fake-user-manager-${process.pid}`);
      mkdirSync(root);
      const bin = mkdtempSync(path.join(os.tmpdir(), 'pp-fake-systemd-'));
      const rel = path.relative(mount, root);
      writeFileSync(
        path.join(bin, 'systemd-run'),
        `#!/bin/sh
unit=probe-$$
while [ $# -gt 0 ]; do case "$1" in --unit=*) unit="\${1#--unit=}";; --) shift; break;; --*) ;; *) break;; esac; shift; done
[ -n "$XDG_RUNTIME_DIR" ] || exit 1
mkdir -p "${root}/$unit" && echo $$ > "${root}/$unit/cgroup.procs" || exit 1
exec "$@"
`,
      );
      writeFileSync(
        path.join(bin, 'systemctl'),
        `#!/bin/sh
for last; do :; done
case "$2" in show) echo "/${rel}/$last";; kill) echo 1 > "${root}/$last/cgroup.kill";; esac
`,
      );
      for (const f of ['systemd-run', 'systemctl']) chmodSync(path.join(bin, f), 0o755);
      const saved = { PATH: process.env.PATH, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
      process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
      process.env.XDG_RUNTIME_DIR = '/run/user/fake';
      const marker = `7${process.pid % 1000}.9`;
      try {
        const r = await runCommand({
          command: `env -i setsid sleep ${marker} >/dev/null 2>&1 & grep '^0::' /proc/self/cgroup; echo "runtime=\${XDG_RUNTIME_DIR:-none}"`,
          cwd: ws,
          workspaceRoot: ws,
          sandbox: 'off',
          cgroupRoot: '/proc/self',
        });
        assert.match(r.stdout, new RegExp(`^0::/${rel}/patchpilot-cmd-[^/]+\\.scope$`, 'm'), r.stdout + r.stderr);
        assert.match(r.stdout, /runtime=none/, "the manager's variables are not passed on to the command");
        assert.deepEqual(alive(marker), [], 'the escapee in the scope was killed');
      } finally {
        process.env.PATH = saved.PATH;
        if (saved.XDG_RUNTIME_DIR === undefined) delete process.env.XDG_RUNTIME_DIR;
        else process.env.XDG_RUNTIME_DIR = saved.XDG_RUNTIME_DIR;
        for (const pid of alive(marker)) process.kill(pid, 'SIGKILL');
        await new Promise((r) => setTimeout(r, 100));
        for (const unit of readdirSync(root, { withFileTypes: true })) if (unit.isDirectory()) rmdirSync(path.join(root, unit.name));
        rmdirSync(root);
        rmSync(bin, { recursive: true, force: true });
      }
    },
  );

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
