import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { cgroup2Mount, cgroupPids, type CommandContainer } from './commandCgroup';

/**
 * The second way to give a command a cgroup of its own, when our own cgroup is not writable (an SSH
 * session's `session-N.scope` belongs to root): ask the user's systemd for a transient scope.
 * `systemd-run --user --scope --unit=NAME -- CMD` moves itself into the new scope and then execs
 * CMD (same pid, so the command stays the session leader we track), and every fork stays in it.
 *
 * systemd-run finds the user manager through XDG_RUNTIME_DIR / DBUS_SESSION_BUS_ADDRESS, which the
 * command's allowlisted environment does not carry: they are given to systemd-run only (`env`
 * before it) and taken away again before the command (`env -u` after it).
 */
export class SystemdScope implements CommandContainer {
  private dir: string | undefined;

  private constructor(private readonly unit: string) {}

  /** A scope for one command, or undefined when `systemd-run --user --scope` does not work here (probed once per PATH). */
  static create(): SystemdScope | undefined {
    if (process.platform !== 'linux' || !scopesWork()) return undefined;
    return new SystemdScope(`patchpilot-cmd-${process.pid}-${randomBytes(4).toString('hex')}.scope`);
  }

  get where(): string {
    return this.unit;
  }

  wrap(file: string, args: readonly string[]): [string, string[]] {
    const manager = managerEnv();
    return [
      'env',
      [
        ...Object.entries(manager).map(([k, v]) => `${k}=${v}`),
        'systemd-run',
        '--user',
        '--scope',
        '--quiet',
        '--collect',
        `--unit=${this.unit}`,
        '--',
        'env',
        ...Object.keys(manager).flatMap((k) => ['-u', k]),
        file,
        ...args,
      ],
    ];
  }

  pids(): number[] {
    const dir = this.cgroupDir();
    return dir ? cgroupPids(dir) : [];
  }

  kill(): boolean {
    const dir = this.cgroupDir();
    try {
      if (dir) {
        writeFileSync(path.join(dir, 'cgroup.kill'), '1');
        return true;
      }
    } catch {
      /* no cgroup.kill (kernel < 5.14) or not ours to write: ask systemd */
    }
    return systemctl(['kill', '--signal=SIGKILL', this.unit]).status === 0;
  }

  /** systemd removes an empty scope itself (--collect). */
  remove(): boolean {
    return true;
  }

  /** Where systemd put the scope, once it exists (asked until known). */
  private cgroupDir(): string | undefined {
    if (this.dir) return this.dir;
    const r = systemctl(['show', '--property=ControlGroup', '--value', this.unit]);
    const cg = r.status === 0 ? String(r.stdout).trim() : '';
    const mount = cgroup2Mount();
    if (cg.startsWith('/') && mount) this.dir = path.join(mount, cg);
    return this.dir;
  }
}

const probed = new Map<string, boolean>();

function scopesWork(): boolean {
  const key = `${process.env.PATH ?? ''}\0${JSON.stringify(managerEnv())}`;
  let works = probed.get(key);
  if (works === undefined) {
    const manager = managerEnv();
    works =
      Object.keys(manager).length > 0 &&
      spawnSync('systemd-run', ['--user', '--scope', '--quiet', '--collect', 'true'], {
        env: { PATH: process.env.PATH ?? '', ...manager },
        stdio: 'ignore',
        timeout: 5000,
      }).status === 0;
    probed.set(key, works);
  }
  return works;
}

function systemctl(args: string[]) {
  return spawnSync('systemctl', ['--user', ...args], {
    env: { PATH: process.env.PATH ?? '', ...managerEnv() },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 5000,
  });
}

/** What systemd-run and systemctl need to find the user's manager. */
function managerEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS']) {
    const v = process.env[k];
    if (v) out[k] = v;
  }
  return out;
}
