/** Something that holds a resource until disposed. Same shape as VS Code's, so host adapters pass through. */
export interface Disposable {
  dispose(): void;
}

/** A Disposable that runs `fn` once. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * Holds disposables and disposes them together, last added first (what was set up later may depend
 * on what came before). Adding to a disposed store disposes at once, so nothing set up late leaks.
 * Every disposable runs even when one throws; the first error is rethrown after.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    let first: unknown;
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (err) {
        first ??= err;
      }
    }
    if (first !== undefined) throw first;
  }
}

/** Adds several disposables to a store (VS Code's `subscriptions.push(a, b, c)` shape). */
export function addAll(store: DisposableStore, ...items: Disposable[]): void {
  for (const item of items) store.add(item);
}

/**
 * Holds at most one disposable: setting a new value disposes the one it replaces (VS Code's
 * `MutableDisposable`, base/common/lifecycle.ts). Setting the same value again keeps it.
 */
export class MutableDisposable<T extends Disposable> implements Disposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.disposed ? undefined : this.current;
  }

  set value(next: T | undefined) {
    if (this.disposed) {
      next?.dispose();
      return;
    }
    if (next === this.current) return;
    const old = this.current;
    this.current = next;
    old?.dispose();
  }

  /** Disposes the value and holds none; the holder itself stays usable. */
  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const old = this.current;
    this.current = undefined;
    old?.dispose();
  }
}
