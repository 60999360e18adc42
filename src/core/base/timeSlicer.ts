/**
 * Lets a long synchronous loop on the main thread (a first checkpoint copying 100,000 files) give the
 * event loop a turn every slice, so that timers, IPC, the extension host and the watchdog's heartbeat
 * keep running; each turn is also where the loop notices its abort signal.
 */
import { performance } from 'node:perf_hooks';

/** How long a loop may hold the main thread before it yields: well under a frame budget of the host's UI. */
export const DEFAULT_SLICE_MS = 20;

export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(
    private readonly signal?: AbortSignal,
    private readonly sliceMs = DEFAULT_SLICE_MS,
  ) {
    signal?.throwIfAborted();
  }

  /** Call between two units of work: yields (setImmediate) once the slice is used up; throws when aborted. */
  async turn(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.sliceStart = performance.now();
  }
}

/** Progress of a long preparation: `done` of `total` units (files). */
export type ProgressReport = (done: number, total: number) => void;

/**
 * Calls `report` at most every `everyMs`, and for the last unit only when something was reported
 * before: a loop that ends within `everyMs` says nothing, a long one neither floods its listeners nor
 * leaves them at "41,200 of 100,000".
 */
export function throttledProgress(report: ProgressReport | undefined, everyMs = 500): ProgressReport {
  let last = performance.now();
  let reported = false;
  return (done, total) => {
    if (!report) return;
    const now = performance.now();
    if (done < total ? now - last < everyMs : !reported) return;
    last = now;
    reported = true;
    report(done, total);
  };
}
