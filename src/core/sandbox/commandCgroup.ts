import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One cgroup (v2) per command, so that everything the command starts can be found and killed, even
 * a process that called setsid(), cleared its environment and lost its parent (`env -i setsid x &`):
 * a cgroup is inherited by every fork and cannot be left without writing to a cgroup.procs file.
 *
 * Where: a child of this process's own cgroup (`0::/path` in /proc/self/cgroup, under the cgroup2
 * mount). That works when the folder is writable: delegated to the user (systemd puts apps in a
 * user-owned `app-*.scope`), or as root in a container. A child beside running processes is allowed
 * because a folder that holds processes (ours) has no controllers enabled for its children (cgroup
 * v2's "no internal processes" rule, the root cgroup excepted). Anything else, `create` returns
 * undefined: then a systemd scope is tried (systemdScope.ts), else the command is tracked as before
 * (session id, environment marker: sessionKill.ts).
 *
 * How the command enters it before it can fork: the spawned program is a tiny `sh` that writes its
 * own pid to cgroup.procs and then execs the command (`wrap`). If that write fails, the command still
 * runs, only without the cgroup.
 */
/** Where one command's processes are held and killed together: a cgroup we made, or a systemd scope (systemdScope.ts). */
export interface CommandContainer {
  /** For tests and diagnostics: the cgroup folder or the unit name. */
  readonly where: string;
  /** The spawn that enters the container, then becomes `file args` with the same pid. */
  wrap(file: string, args: readonly string[]): [string, string[]];
  /** Every process inside now. */
  pids(): number[];
  /** SIGKILL to all of them at once if possible; false: the caller kills pids(). */
  kill(): boolean;
  /** Gone once empty; false while a process is still in it. */
  remove(): boolean;
}

export class CommandCgroup implements CommandContainer {
  private constructor(readonly dir: string) {}

  get where(): string {
    return this.dir;
  }

  /**
   * `root`: the folder to create the command's cgroup in (tests point it elsewhere); default this
   * process's own cgroup; `false`: none.
   */
  static create(root?: string | false): CommandCgroup | undefined {
    if (root === false || process.platform !== 'linux') return undefined;
    const parent = root ?? ownCgroupDir();
    if (!parent) return undefined;
    removeStale(parent);
    const dir = path.join(parent, `${PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(dir);
    } catch {
      return undefined; // not writable (not delegated), or not there
    }
    // A plain folder would take the wrapper's write as a new file: only a real cgroup has these.
    if (!existsSync(path.join(dir, 'cgroup.procs')) || !existsSync(path.join(dir, 'cgroup.controllers'))) {
      removeTree(dir);
      return undefined;
    }
    return new CommandCgroup(dir);
  }

  /** The spawn that puts itself into the cgroup, then becomes `file args` (same pid: a session leader stays one). */
  wrap(file: string, args: readonly string[]): [string, string[]] {
    return ['/bin/sh', ['-c', '{ echo $$ > "$0"; } 2>/dev/null; exec "$@"', path.join(this.dir, 'cgroup.procs'), file, ...args]];
  }

  /** Every process in the cgroup and in any cgroup the command created below it. */
  pids(): number[] {
    return cgroupPids(this.dir);
  }

  /** SIGKILL to the whole cgroup at once where the kernel has cgroup.kill (5.14+); else the caller kills pids(). */
  kill(): boolean {
    try {
      writeFileSync(path.join(this.dir, 'cgroup.kill'), '1');
      return true;
    } catch {
      return false;
    }
  }

  /** Removes the (empty) cgroup; false while a process is still in it. */
  remove(): boolean {
    return removeTree(this.dir);
  }
}

const PREFIX = 'patchpilot-cmd-';

/**
 * Empty cgroups a PatchPilot that died mid-command left behind (the pid in the name is gone).
 * rmdir removes only an empty cgroup, so whatever still runs in one is never touched here.
 */
function removeStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^patchpilot-cmd-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || existsSync(`/proc/${pid}`)) continue;
    removeTree(path.join(parent, name));
  }
}

/** This process's cgroup v2 folder, or undefined (no cgroup2 mount, cgroup v1 only, not Linux). */
export function ownCgroupDir(): string | undefined {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'));
    const mount = cgroup2Mount();
    if (!line || !mount) return undefined;
    return path.join(mount, line.slice(3));
  } catch {
    return undefined;
  }
}

/** Where the cgroup2 file system is mounted: /sys/fs/cgroup (unified), /sys/fs/cgroup/unified (hybrid). */
export function cgroup2Mount(): string | undefined {
  try {
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const [before, after] = line.split(' - ');
      if (after?.split(' ')[0] === 'cgroup2') return before!.split(' ')[4];
    }
  } catch {
    /* not Linux */
  }
  return undefined;
}

/** The pids in a cgroup folder and every cgroup below it. */
export function cgroupPids(dir: string): number[] {
  const out: number[] = [];
  for (const d of cgroupTree(dir)) {
    try {
      for (const line of readFileSync(path.join(d, 'cgroup.procs'), 'utf8').split('\n')) if (/^\d+$/.test(line)) out.push(Number(line));
    } catch {
      /* removed meanwhile */
    }
  }
  return out;
}

/** The folder and its sub-cgroups, deepest first (the order rmdir needs). */
function cgroupTree(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory()) visit(path.join(d, e.name));
    out.push(d);
  };
  visit(dir);
  return out;
}

function removeTree(dir: string): boolean {
  for (const d of cgroupTree(dir)) {
    try {
      rmdirSync(d);
    } catch {
      return false;
    }
  }
  return true;
}
