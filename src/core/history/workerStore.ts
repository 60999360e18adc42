/**
 * HistoryStore whose database lives in a worker thread: every method is a message, so neither a
 * 50 MB export nor a wait for another window's lock ever blocks the caller's event loop.
 *
 * The worker is unref'd while idle (an open store never keeps a CLI alive) and ref'd while a call
 * is in flight. On process exit a synchronous last-chance save runs through a SharedArrayBuffer
 * handshake (Atomics.wait), because 'exit' listeners cannot await.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { UserError } from '../base';
import type { Notifier } from '../ports';
import { StoreBase } from './storeBase';
import type { EngineArgs, EngineMethod, EngineResult, Request, Response, SerializedError, WorkerMessage, WorkerOpenOptions } from './worker/protocol';
import type { HistoryReport } from './types';

const EXIT_FLUSH_TIMEOUT_MS = 5_000;

export interface WorkerStoreOptions extends WorkerOpenOptions {
  notifier?: Notifier;
  /** Install a process.on('exit') last-chance save (default true). */
  exitHook?: boolean;
  /** Path of the worker script; defaults to the bundled dist/historyWorker.js or, from source, the .ts file through tsx. */
  workerScript?: string;
}

/**
 * In the bundles this module lives in dist/cli.js or dist/extension.js, next to dist/historyWorker.js.
 * From source (tests, tsx) the worker is TypeScript: a tiny eval'd bootstrap registers tsx first.
 */
function createWorker(script: string | undefined): Worker {
  if (script) return new Worker(script);
  if (__filename.endsWith('.js')) return new Worker(path.join(__dirname, 'historyWorker.js'));
  const ts = path.join(__dirname, 'worker', 'historyWorker.ts');
  const tsxApi = 'tsx/cjs/api'; // a variable: esbuild must not follow this dev-only path into the bundles
  const tsx = require.resolve(tsxApi);
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(ts)});`, { eval: true });
}

export class WorkerHistoryStore extends StoreBase {
  private nextId = 1;
  private readonly inflight = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private dead: Error | undefined;

  static async open(options: WorkerStoreOptions): Promise<WorkerHistoryStore> {
    const { notifier, exitHook, workerScript, ...engineOptions } = options;
    const store = new WorkerHistoryStore(createWorker(workerScript), options.path, notifier, exitHook ?? true);
    try {
      const opened = await store.send<{ warnings: HistoryReport[] }>({ id: 0, method: 'open', args: [engineOptions] });
      store.warnings = opened.warnings;
      for (const w of opened.warnings) notifier?.warn(w.message);
      return store;
    } catch (err) {
      await store.shutdown();
      throw err;
    }
  }

  private constructor(
    private readonly worker: Worker,
    dbPath: string,
    notifier: Notifier | undefined,
    exitHook: boolean,
  ) {
    super(dbPath, notifier, exitHook);
    worker.on('message', (m: WorkerMessage) => this.onMessage(m));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`history worker exited (code ${code})`)));
    worker.unref();
  }

  protected call<M extends EngineMethod>(method: M, args: EngineArgs<M>): Promise<EngineResult<M>> {
    return this.send({ id: 0, method, args });
  }

  private send<T>(req: Request): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.inflight.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (this.inflight.size === 1) this.worker.ref();
      this.worker.postMessage({ ...req, id });
    });
  }

  private onMessage(m: WorkerMessage): void {
    if ('event' in m) {
      this.emit(m.report);
      return;
    }
    const pending = this.inflight.get(m.id);
    if (!pending) return;
    this.inflight.delete(m.id);
    if (this.inflight.size === 0) this.worker.unref();
    const res = m as Response;
    if (res.ok) pending.resolve(res.value);
    else pending.reject(deserialize(res.error));
  }

  private fail(err: Error): void {
    if (this.dead) return;
    this.dead = this.closed ? new UserError('the history store is closed', 'closed') : err;
    for (const p of this.inflight.values()) p.reject(this.dead);
    this.inflight.clear();
    if (!this.closed) this.emit({ kind: 'persist-failed', message: `The history worker stopped: ${err.message}. Unsaved history may be lost.` });
  }

  protected flushOnExit(): void {
    if (this.closed || this.dead) return;
    const state = new SharedArrayBuffer(4);
    this.worker.postMessage({ id: 0, method: 'flushSync', state } satisfies Request);
    Atomics.wait(new Int32Array(state), 0, 0, EXIT_FLUSH_TIMEOUT_MS);
  }

  protected async shutdown(): Promise<void> {
    this.closed = true;
    await this.worker.terminate();
  }
}

function deserialize(e: SerializedError): Error {
  if (e.name === 'UserError') return new UserError(e.message, e.code);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.code) (err as Error & { code?: string }).code = e.code;
  return err;
}
