/**
 * A PatchPlanner that computes large plans in a worker thread, so a 2,000-hunk patch on a
 * 400,000-line file does not freeze the VS Code extension host for the half second it takes; small
 * plans (most patches) run inline, where posting them would cost more than computing them.
 *
 * The worker is created on the first large job, reused, and unref'd while idle (it never keeps a
 * process alive). If it cannot start or dies, the job runs inline: same result, only on this thread.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Plan } from './plan';
import { inlinePlanner, workSize, type PatchPlanner, type PlanJob } from './planner';
import type { PlanRequest, PlanResponse } from './worker/protocol';

/** Work (characters of files and hunks) above which a plan goes to the worker: ~1 MB, ~25k lines. */
export const OFF_THREAD_MIN_WORK = 1_000_000;

export interface OffThreadPlannerOptions {
  /** Jobs at least this big go to the worker (default OFF_THREAD_MIN_WORK; 0: every job). */
  minWork?: number;
  /** Path of the worker script; default dist/patchWorker.js next to the bundle, or the .ts file through tsx. */
  workerScript?: string;
}

export class OffThreadPlanner implements PatchPlanner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly inflight = new Map<number, { job: PlanJob; resolve: (p: Plan) => void }>();
  /** Set once the worker failed: every later job runs inline. */
  private broken = false;
  /** How many jobs went to the worker (for tests and the benchmark). */
  offThreadJobs = 0;

  constructor(private readonly opts: OffThreadPlannerOptions = {}) {}

  plan(job: PlanJob): Promise<Plan> {
    if (this.broken || workSize(job) < (this.opts.minWork ?? OFF_THREAD_MIN_WORK)) return inlinePlanner.plan(job);
    const worker = this.ensureWorker();
    if (!worker) return inlinePlanner.plan(job);
    const id = this.nextId++;
    this.offThreadJobs++;
    return new Promise<Plan>((resolve) => {
      this.inflight.set(id, { job, resolve });
      if (this.inflight.size === 1) worker.ref();
      worker.postMessage({ id, job } satisfies PlanRequest);
    });
  }

  /** Stops the worker; jobs in flight finish inline. */
  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.broken = true;
    this.rescueInflight();
    await worker?.terminate();
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const worker = createWorker(this.opts.workerScript);
      worker.on('message', (m: PlanResponse) => this.onMessage(m));
      worker.on('error', () => this.fail());
      worker.on('exit', () => this.fail());
      worker.unref();
      this.worker = worker;
      return worker;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  private onMessage(m: PlanResponse): void {
    const pending = this.inflight.get(m.id);
    if (!pending) return;
    this.inflight.delete(m.id);
    if (this.inflight.size === 0) this.worker?.unref();
    // A failure inside the worker is retried inline, where applyParsedPatch turns it into a refusal.
    if (m.ok) pending.resolve(m.plan);
    else void inlinePlanner.plan(pending.job).then(pending.resolve);
  }

  private fail(): void {
    this.broken = true;
    this.worker = undefined;
    this.rescueInflight();
  }

  private rescueInflight(): void {
    const pending = [...this.inflight.values()];
    this.inflight.clear();
    for (const p of pending) void inlinePlanner.plan(p.job).then(p.resolve);
  }
}

/**
 * In the bundles this module lives in dist/extension.js or dist/cli.js, next to dist/patchWorker.js.
 * From source (tests, tsx) the worker is TypeScript: a tiny eval'd bootstrap registers tsx first.
 */
function createWorker(script: string | undefined): Worker {
  if (script) return new Worker(script);
  if (__filename.endsWith('.js')) return new Worker(path.join(__dirname, 'patchWorker.js'));
  const ts = path.join(__dirname, 'worker', 'patchWorker.ts');
  const tsxApi = 'tsx/cjs/api'; // a variable: esbuild must not follow this dev-only path into the bundles
  const tsx = require.resolve(tsxApi);
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(ts)});`, { eval: true });
}
