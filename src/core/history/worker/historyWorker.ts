/**
 * Worker thread that owns the sql.js database. Export, fsync and rename of a large database take
 * tens to hundreds of milliseconds of synchronous work; here they never block the extension host's
 * event loop. Requests are handled one at a time, in order, so the engine needs no locking of its own.
 */
import { parentPort } from 'node:worker_threads';
import { HistoryEngine } from '../engine';
import { ENGINE_METHODS, type EngineMethod, type Request, type Response, type SerializedError, type WorkerMessage } from './protocol';

const port = parentPort;
if (!port) throw new Error('historyWorker must run in a worker thread');

let engine: HistoryEngine | undefined;
let queue: Promise<void> = Promise.resolve();

port.on('message', (req: Request) => {
  if (req.method === 'flushSync') {
    // Handled at once, even while the main thread is blocked waiting in its exit hook.
    const state = new Int32Array(req.state);
    const failed = engine ? engine.db.flushSyncQuietly() : undefined;
    Atomics.store(state, 0, failed === undefined ? 1 : 2);
    Atomics.notify(state, 0);
    return;
  }
  queue = queue.then(() => handle(req));
});

async function handle(req: Exclude<Request, { method: 'flushSync' }>): Promise<void> {
  try {
    let value: unknown;
    if (req.method === 'open') {
      engine = await HistoryEngine.open({ ...req.args[0], onReport: (report) => post({ event: 'report', report }) });
      value = { warnings: engine.db.warnings };
    } else {
      value = call(req.method, req.args);
    }
    post({ id: req.id, ok: true, value } satisfies Response);
  } catch (err) {
    post({ id: req.id, ok: false, error: serialize(err) } satisfies Response);
  }
}

function call(method: EngineMethod, args: unknown[]): unknown {
  if (!engine) throw new Error('history store is not open');
  if (!ENGINE_METHODS.includes(method)) throw new Error(`unknown method ${String(method)}`);
  const fn = engine[method] as (...a: unknown[]) => unknown;
  return fn.apply(engine, args);
}

function serialize(err: unknown): SerializedError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { name: err.name, message: err.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(err) };
}

function post(message: WorkerMessage): void {
  port!.postMessage(message);
}
