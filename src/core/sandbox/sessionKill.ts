import { randomBytes } from 'node:crypto';
import { CommandCgroup, type CommandContainer } from './commandCgroup';
import { SystemdScope } from './systemdScope';
import { descendantsOf, environHas, listProcesses, readProc, type ProcInfo } from './processTree';

/** Environment variable every process of one command inherits; its value is random per command. */
export const MARKER_VAR = 'PATCHPILOT_RUN_ID';

const MAX_ROUNDS = 40;
const ROUND_PAUSE_MS = 15;

/**
 * Everything one command started, so that nothing outlives it. Ancestry alone loses a double-forked
 * daemon (`(setsid sleep 1000 &)`, `nohup x &`, a node child spawned detached and unref'd): once its
 * parent exits it belongs to init. So a process belongs to the command when any of these holds:
 * - its session id is the command's (the command is spawned detached, in its own session; fork and
 *   double fork keep the session, only setsid() leaves it);
 * - its initial environment carries this command's marker (PATCHPILOT_RUN_ID=<random>), which
 *   setsid() does not drop;
 * - it is a descendant of a process we already tracked (seen while its parent lived);
 * - it is in the command's own cgroup, when the spawn went through `wrap` and cgroups v2 can be
 *   used here (commandCgroup.ts, else systemdScope.ts): this one also catches what escapes the
 *   other three (setsid + `env -i` + double fork before we look). Without a usable cgroup that case
 *   escapes unless the sandbox runs (its pid namespace ends everything with bwrap).
 *
 * Linux only (/proc). Elsewhere only the process group is signalled.
 */
export class CommandProcesses {
  readonly marker = randomBytes(12).toString('hex');
  private sid: number | undefined;
  /** pid -> start time, so a pid reused by an unrelated process is never signalled. */
  private readonly known = new Map<number, string>();
  private cgroup: CommandContainer | undefined;

  /**
   * `cgroupRoot`: where the command's cgroup goes (default: a child of our own; when that cannot be
   * made, a `systemd-run --user --scope` unless `noSystemdScope`; false: neither).
   */
  constructor(private readonly options: { cgroupRoot?: string | false; noSystemdScope?: boolean } = {}) {}

  /**
   * The program to spawn for `file args`: through the cgroup wrapper when a cgroup could be made,
   * else unchanged. Call once, before spawning.
   */
  wrap(file: string, args: readonly string[]): [string, string[]] {
    const root = this.options.cgroupRoot;
    this.cgroup ??= CommandCgroup.create(root) ?? (root === false || this.options.noSystemdScope ? undefined : SystemdScope.create());
    return this.cgroup ? this.cgroup.wrap(file, args) : [file, [...args]];
  }

  /** The command's cgroup folder or systemd scope, if it has one (for tests and diagnostics). */
  get container(): string | undefined {
    return this.cgroup?.where;
  }

  /** Variables to add to the command's environment. */
  env(): Record<string, string> {
    return { [MARKER_VAR]: this.marker };
  }

  /** The command's first process, spawned detached: its pid is the session and process group id. */
  attach(pid: number | undefined): void {
    if (pid === undefined) return;
    this.sid = pid;
    const info = readProc(pid);
    if (info) this.known.set(pid, info.start);
  }

  /** The command's live processes now; remembers them for later scans. */
  scan(): ProcInfo[] {
    const procs = listProcesses();
    const entry = `${MARKER_VAR}=${this.marker}`;
    const ours = new Map<number, ProcInfo>();
    const inCgroup = new Set(this.cgroup?.pids() ?? []);
    for (const p of procs) {
      if (p.pid === process.pid) continue;
      if (inCgroup.has(p.pid) || (this.sid !== undefined && p.sid === this.sid) || this.known.get(p.pid) === p.start || environHas(p.pid, entry))
        ours.set(p.pid, p);
    }
    for (const d of descendantsOf(procs, ours.keys())) ours.set(d.pid, d);
    for (const p of ours.values()) this.known.set(p.pid, p.start);
    return [...ours.values()].filter((p) => !p.zombie && p.pid !== process.pid);
  }

  /** One signal to every process of the command (cancel, timeout: SIGTERM first, so it can clean up). */
  signal(signal: NodeJS.Signals): void {
    this.signalGroup(signal);
    for (const p of this.scan()) kill(p.pid, signal);
  }

  /**
   * SIGKILL until a scan finds nothing left: each round stops every process first (SIGSTOP), so a
   * fork bomb cannot outrun us, then kills them. Bounded; returns the pids still alive (normally none).
   */
  async killAll(): Promise<number[]> {
    this.signalGroup('SIGKILL');
    this.cgroup?.kill();
    let left: ProcInfo[] = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      left = this.scan();
      // The cgroup goes once empty; an exiting process may keep it busy for a moment (rmdir: EBUSY).
      if (left.length === 0 && (!this.cgroup || this.cgroup.remove())) return [];
      for (const p of left) kill(p.pid, 'SIGSTOP');
      for (const p of left) kill(p.pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, ROUND_PAUSE_MS));
    }
    if (left.length === 0) this.removeCgroupLater();
    return left.map((p) => p.pid);
  }

  /** A process still being reaped keeps an empty cgroup busy: retry in the background, never block the caller. */
  private removeCgroupLater(tries = 20): void {
    const cgroup = this.cgroup;
    if (!cgroup || tries === 0) return;
    setTimeout(() => {
      if (!cgroup.remove()) this.removeCgroupLater(tries - 1);
    }, 250).unref();
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.sid !== undefined) kill(-this.sid, signal);
  }
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone, or not ours to signal */
  }
}
