/**
 * HistoryStore running the engine on the calling thread. Simple and fast to start, but a save of a
 * large database blocks the event loop for its whole export + write (see the benchmark): use it in
 * short-lived processes and tests, and the worker-backed store in the extension host.
 */
import type { Notifier } from '../ports';
import { HistoryEngine, type EngineOptions } from './engine';
import { StoreBase } from './storeBase';
import type { EngineArgs, EngineMethod, EngineResult } from './worker/protocol';

export class InProcessHistoryStore extends StoreBase {
  static async open(options: EngineOptions & { notifier?: Notifier; exitHook?: boolean }): Promise<InProcessHistoryStore> {
    let store: InProcessHistoryStore | undefined;
    const engine = await HistoryEngine.open({
      ...options,
      onReport: (r) => {
        options.onReport?.(r);
        store?.emit(r);
      },
    });
    store = new InProcessHistoryStore(engine, options.notifier, options.exitHook ?? true);
    store.warnings = engine.db.warnings;
    for (const w of store.warnings) options.notifier?.warn(w.message);
    return store;
  }

  private constructor(
    readonly engine: HistoryEngine,
    notifier: Notifier | undefined,
    exitHook: boolean,
  ) {
    super(engine.db.path, notifier, exitHook);
  }

  protected async call<M extends EngineMethod>(method: M, args: EngineArgs<M>): Promise<EngineResult<M>> {
    const fn = this.engine[method] as (...a: unknown[]) => EngineResult<M>;
    return fn.apply(this.engine, args);
  }

  protected flushOnExit(): void {
    if (!this.closed) this.engine.db.flushSyncQuietly();
  }

  protected async shutdown(): Promise<void> {}
}
