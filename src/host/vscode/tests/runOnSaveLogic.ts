/**
 * Run-on-save scheduling, pure (no `vscode` import; unit-tested with a fake clock): saves that
 * match the setting are collected for `delayMs`, then one run starts; a newer matching save
 * cancels the run in flight (its result is dropped; its paths join the next run) and starts the wait again.
 */
import { Emitter, type Event } from '../../../core/base';
import { compileGlobs } from '../../../core/policy';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** `off`, `on` or a glob (the syntax of patchpilot.policy.protectedPaths) -> which saved workspace-relative paths trigger a run. */
export function runOnSaveMatcher(setting: string): (relPath: string) => boolean {
  const v = setting.trim();
  if (v === '' || v === 'off') return () => false;
  if (v === 'on') return (rel) => !rel.startsWith('../') && !rel.split('/').includes('.git');
  const globs = compileGlobs([v]);
  return (rel) => !!globs && !rel.startsWith('../') && globs.ignores(rel.toLowerCase());
}

export interface ScheduledRun<R> {
  /** The saved paths that led to this run. */
  paths: string[];
  result: R;
}

export class RunOnSaveScheduler<R> {
  private timer: unknown;
  private pending = new Set<string>();
  private inFlight?: AbortController;
  private inFlightPaths: string[] = [];
  private readonly results = new Emitter<ScheduledRun<R>>();
  /** A run finished and was not superseded by a newer save. */
  readonly onDidRun: Event<ScheduledRun<R>> = this.results.event;

  constructor(
    private readonly options: {
      delayMs: number;
      timers?: Timers;
      matches(relPath: string): boolean;
      run(signal: AbortSignal, paths: string[]): Promise<R>;
    },
  ) {}

  private get timers(): Timers {
    return this.options.timers ?? realTimers;
  }

  /** A file was saved (workspace-relative path). Returns whether it schedules a run. */
  onSave(relPath: string): boolean {
    if (!this.options.matches(relPath)) return false;
    // A run cut short by this save never reports: the files it was for are tested by the next one.
    if (this.inFlight) for (const p of this.inFlightPaths) this.pending.add(p);
    this.pending.add(relPath);
    this.inFlight?.abort();
    this.inFlight = undefined;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => void this.fire(), this.options.delayMs);
    return true;
  }

  /** A run is waiting or in flight. */
  get busy(): boolean {
    return this.timer !== undefined || this.inFlight !== undefined;
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    const paths = [...this.pending];
    this.pending.clear();
    const controller = new AbortController();
    this.inFlight = controller;
    this.inFlightPaths = paths;
    let result: R;
    try {
      result = await this.options.run(controller.signal, paths);
    } catch {
      if (this.inFlight === controller) this.inFlight = undefined;
      return;
    }
    if (controller.signal.aborted) return; // a newer save took over
    this.inFlight = undefined;
    this.results.fire({ paths, result });
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.inFlight?.abort();
    this.results.dispose();
  }
}
