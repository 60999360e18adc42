/**
 * The client's single retry layer (the SDK's own retries are switched off): exponential backoff with
 * "equal" jitter (half the step fixed, half random), the server's Retry-After honoured, attempts and
 * total time capped. Full jitter (a random wait in [0, step]) let three retries of a 5xx land within
 * half a second, hammering a server that had just failed; equal jitter keeps each wait at least half
 * its step: about 1, 2 and 4 s.
 */

export interface RetryPolicy {
  /** Total requests for one step, the first included. */
  maxAttempts: number;
  /** Give up when the next wait would end later than this after the step's first failure (a slow first attempt spends none of it). */
  maxRetryTimeMs: number;
  /** Backoff base: the n-th retry waits a random time in [step/2, step], step = min(cap, base * 2^(n-1)). */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  maxRetryTimeMs: 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
};

/**
 * Milliseconds to wait from the headers `retry-after-ms` (non-standard, preferred when present) and
 * `Retry-After` (delta-seconds or an HTTP date). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // HTTP-date form, e.g. "Wed, 21 Oct 2015 07:28:00 GMT". Date.parse also accepts looser text, so
  // insist on a weekday-and-GMT shape before trusting it.
  if (!/GMT$/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Wait before retry number `retry` (1 = the first retry). A server-given wait is a floor: we add a
 * little jitter on top (so many clients told "retry in 1 s" do not return in the same millisecond),
 * never go below it.
 */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) {
    return retryAfterMs + Math.floor(random() * Math.min(1000, retryAfterMs * 0.1));
  }
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(step / 2 + random() * (step / 2));
}

/** Sleep that ends early, rejecting with `onAbort()`, the moment `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
