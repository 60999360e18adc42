/**
 * The last resort that ends a run whose main thread cannot (attacks.patterns).
 *
 * The wall-clock timer, the SIGTERM/SIGINT handlers and the cancel path are all JavaScript on the
 * main thread: while a synchronous loop holds that thread (a pattern that backtracks, a bug), none
 * of them runs and the process outlives every limit. This worker has its own event loop. The main
 * thread bumps a heartbeat in shared memory and writes the run's deadline there; the worker kills
 * the process (SIGKILL: no JavaScript of the main thread is needed, so the shell sees 137) when a
 * run is armed and
 *   - its wall clock plus a grace period has passed (the orderly stop did not finish), or
 *   - a cancel (Ctrl-C, SIGTERM) was asked for and the run has not ended within a grace period, or
 *   - the main thread has not turned its event loop for STALL_MS while the process kept the CPU busy
 *     (half of that time at least): a SIGTERM sent now could never be handled, and workers do not
 *     receive signals, so a stall is the only sign the worker can see. A process the machine did not
 *     run meanwhile is not stalled: it waits.
 * The orderly path (cancel, kill the command's process tree, flush the history, exit 130) stays
 * the normal one; every grace period is longer than it needs.
 */
import { Worker } from 'node:worker_threads';

/** The orderly stop after the wall clock (memory, history) must finish within this. */
export const WALL_CLOCK_GRACE_MS = 15_000;
/** A cancel kills the command's process group (2 s to SIGKILL) and flushes the history within this. */
export const CANCEL_GRACE_MS = 10_000;
/** No step of a run holds the main thread this long; one that does has hung. */
export const STALL_MS = 5_000;
const BEAT_MS = 250;
/**
 * The share of the stall the process must have spent on the CPU for it to count: a loop that holds the
 * main thread burns CPU the whole time; a process the machine did not run (a suspended laptop, a
 * paused VM, a starved low-priority process) burns none, and waits instead of being killed.
 */
const STALL_CPU_SHARE = 0.5;

// Int32 slots, times in ms since `origin`; 0 = unset.
const BEAT = 0;
const DEADLINE = 1;
const CANCELLED_AT = 2;
const ARMED = 3;

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const s = new Int32Array(workerData.shared);
const now = () => Date.now() - workerData.origin;
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
let lastBeat = -1, lastChange = now(), cpuAtChange = cpuMs();
const kill = (why) => {
  try { writeSync(2, 'patchpilot: ' + why + '; the watchdog ends the process\\n'); } catch {}
  process.kill(process.pid, 'SIGKILL');
};
setInterval(() => {
  const beat = Atomics.load(s, ${BEAT});
  if (beat !== lastBeat) { lastBeat = beat; lastChange = now(); cpuAtChange = cpuMs(); }
  if (!Atomics.load(s, ${ARMED})) return;
  const t = now(), deadline = Atomics.load(s, ${DEADLINE}), cancelled = Atomics.load(s, ${CANCELLED_AT});
  if (deadline && t > deadline) kill('the run is past its wall clock and did not stop');
  else if (cancelled && t - cancelled > workerData.cancelGrace) kill('the run was cancelled and did not stop');
  // A stall is the main thread running without turning its loop: the process spent CPU meanwhile.
  // Silence without CPU is a process that was not run (suspended, paused, starved by a loaded machine).
  else if (t - lastChange > workerData.stall && cpuMs() - cpuAtChange > workerData.stall * ${STALL_CPU_SHARE})
    kill('the run has blocked the main thread for ' + Math.round((t - lastChange) / 1000) + ' s');
}, 200);
`;

export class Watchdog {
  private readonly origin = Date.now();
  private readonly shared = new Int32Array(new SharedArrayBuffer(4 * 4));
  private worker: Worker | undefined;
  private beat: NodeJS.Timeout | undefined;

  constructor(private readonly limits = { wallClockGraceMs: WALL_CLOCK_GRACE_MS, cancelGraceMs: CANCEL_GRACE_MS, stallMs: STALL_MS }) {}

  /** Watches one run that must end by `wallClockMs` from now (plus the grace). */
  arm(wallClockMs: number): void {
    if (!this.worker) {
      this.worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { shared: this.shared.buffer, origin: this.origin, cancelGrace: this.limits.cancelGraceMs, stall: this.limits.stallMs },
      });
      this.worker.unref(); // never what keeps the process alive
      this.beat = setInterval(() => Atomics.add(this.shared, BEAT, 1), BEAT_MS);
      this.beat.unref();
    }
    const deadline = this.now() + wallClockMs + this.limits.wallClockGraceMs;
    Atomics.store(this.shared, DEADLINE, deadline < 2 ** 31 ? deadline : 0); // beyond ~24 days: no deadline
    Atomics.store(this.shared, CANCELLED_AT, 0);
    Atomics.add(this.shared, BEAT, 1);
    Atomics.store(this.shared, ARMED, 1);
  }

  /** A cancel was asked for: the run now has the cancel grace to end. */
  cancelled(): void {
    if (!Atomics.load(this.shared, CANCELLED_AT)) Atomics.store(this.shared, CANCELLED_AT, Math.max(1, this.now()));
  }

  disarm(): void {
    Atomics.store(this.shared, ARMED, 0);
  }

  private now(): number {
    return Date.now() - this.origin;
  }
}
