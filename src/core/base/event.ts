import type { IDisposable } from './disposable';

/** A subscribable event, shaped like vscode.Event so host code can adapt it one to one. */
export type Event<T> = (listener: (e: T) => void) => IDisposable;

/** Fires events to listeners; a throwing listener does not stop the others. */
export class Emitter<T> implements IDisposable {
  private listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
