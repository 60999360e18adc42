import { CancelledError } from './cancellation';

/**
 * At most `max` tasks at once; the others wait their turn in order. A waiting task whose signal
 * aborts leaves the queue without ever running.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: { start: () => void; signal?: AbortSignal; onAbort: () => void }[] = [];

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`a limit must be a positive integer, got ${max}`);
  }

  get running(): number {
    return this.active;
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new CancelledError());
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        start: () => {
          signal?.removeEventListener('abort', entry.onAbort);
          this.active++;
          resolve();
        },
        onAbort: () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new CancelledError());
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.start();
  }
}
