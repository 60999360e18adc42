import { randomBytes } from 'node:crypto';
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
 * - it is a descendant of a process we already tracked (seen while its parent lived).
 * What escapes all three (setsid + `env -i` + double fork before we look) would need a cgroup or a
 * child subreaper; the sandbox's pid namespace covers that case when bubblewrap runs.
 *
 * Linux only (/proc). Elsewhere only the process group is signalled.
 */
export class CommandProcesses {
  readonly marker = randomBytes(12).toString('hex');
  private sid: number | undefined;
  /** pid -> start time, so a pid reused by an unrelated process is never signalled. */
  private readonly known = new Map<number, string>();

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
    for (const p of procs) {
      if (p.pid === process.pid) continue;
      if ((this.sid !== undefined && p.sid === this.sid) || this.known.get(p.pid) === p.start || environHas(p.pid, entry)) ours.set(p.pid, p);
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
    let left: ProcInfo[] = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      left = this.scan();
      if (left.length === 0) return [];
      for (const p of left) kill(p.pid, 'SIGSTOP');
      for (const p of left) kill(p.pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, ROUND_PAUSE_MS));
    }
    return left.map((p) => p.pid);
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
