/**
 * Something that holds a resource until disposed. Same shape and name as VS Code's `IDisposable`, so
 * host adapters pass through; `Disposable` below is the base class that owns such things.
 */
export interface IDisposable {
  dispose(): void;
}

/** An IDisposable that runs `fn` once. */
export function toDisposable(fn: () => void): IDisposable {
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
export class DisposableStore implements IDisposable {
  private readonly items: IDisposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends IDisposable>(item: T): T {
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
export function addAll(store: DisposableStore, ...items: IDisposable[]): void {
  for (const item of items) store.add(item);
}

/**
 * Holds at most one disposable: setting a new value disposes the one it replaces (VS Code's
 * `MutableDisposable`, base/common/lifecycle.ts). Setting the same value again keeps it.
 */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
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

/**
 * The base of a class that owns disposables (VS Code's `Disposable`, base/common/lifecycle.ts): what
 * it sets up goes through `_register`, and disposing it disposes them all, last registered first.
 */
export abstract class Disposable implements IDisposable {
  private readonly store = new DisposableStore();

  /** Whether this was disposed (a late `_register` then disposes its argument at once). */
  protected get isDisposed(): boolean {
    return this.store.isDisposed;
  }

  /** Owns `item` from now on: it is disposed with this. */
  protected _register<T extends IDisposable>(item: T): T {
    if ((item as unknown) === this) throw new Error('a Disposable cannot register itself');
    return this.store.add(item);
  }

  dispose(): void {
    this.store.dispose();
  }
}
