/**
 * The retry loop and the once-only stream recovery, independent of the wire protocol: a client
 * passes its one-attempt function and gets the same behaviour as ModelClient's loop (the policy,
 * backoff and Retry-After of retryPolicy.ts, the time budget, `retrying` and `restart` events).
 * Every client uses it: the OpenAI-compatible ModelClient and the Anthropic client.
 */
import { ModelApiError, StreamInterruptedError, cancelledError } from './errors';
import { abortableSleep, backoffDelay, type RetryPolicy } from './retryPolicy';
import type { ModelStreamEvent } from './types';

/**
 * What a step has spent on retries. The time budget runs from the step's first failure, not its
 * first request: an attempt that waited out the first-reply timeout (120 s by default, a reasoning
 * model thinking before its first token) would otherwise use up a 60 s budget and never be retried.
 */
export interface RetryBudget {
  attemptsUsed: number;
  failingSince?: number;
}

export interface RetryLoopOptions<T> {
  policy: RetryPolicy;
  random: () => number;
  signal: AbortSignal | undefined;
  emit: (e: ModelStreamEvent) => void;
  /** One request; `attempt` counts from 1 over the whole step. */
  attempt: (attempt: number) => Promise<T>;
}

/** Runs attempts until one succeeds, a fault is not retryable, or the attempts or the time run out. */
export async function withRetries<T>(o: RetryLoopOptions<T>, budget: RetryBudget): Promise<T> {
  let attempt = budget.attemptsUsed;
  // A recovery after a broken stream always gets its one fresh request.
  const maxAttempts = Math.max(o.policy.maxAttempts, budget.attemptsUsed + 1);
  for (;;) {
    if (o.signal?.aborted) throw cancelledError(attempt);
    attempt++;
    try {
      return await o.attempt(attempt);
    } catch (raw) {
      const err = raw instanceof ModelApiError ? raw : new ModelApiError({ kind: 'server', retryable: false, message: String(raw), cause: raw });
      err.attempts = attempt;
      if (!err.retryable) throw err;
      if (attempt >= maxAttempts) throw extend(err, `; gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
      const delayMs = backoffDelay(attempt, o.policy, err.retryAfterMs, o.random);
      budget.failingSince ??= Date.now();
      const elapsed = Date.now() - budget.failingSince;
      if (elapsed + delayMs > o.policy.maxRetryTimeMs) {
        const asked = err.retryAfterMs !== undefined ? ` (the server asked to wait ${seconds(err.retryAfterMs)})` : '';
        throw extend(
          err,
          elapsed >= o.policy.maxRetryTimeMs
            ? `; not retrying: the ${seconds(o.policy.maxRetryTimeMs)} retry budget (from the first failure) is used up after ${attempt} attempt(s)`
            : `; not retrying: waiting ${seconds(delayMs)}${asked} would exceed the ${seconds(o.policy.maxRetryTimeMs)} retry budget`,
        );
      }
      o.emit({ type: 'retrying', attempt: attempt + 1, delayMs, reason: err.message, kind: err.kind });
      await abortableSleep(delayMs, o.signal, () => cancelledError(attempt));
    }
  }
}

/**
 * withRetries, and when the stream breaks mid-reply: emit `restart` (consumers drop what they
 * showed) and run the step once more, continuing the same budget. A second break is final.
 */
export async function withRecovery<T>(o: RetryLoopOptions<T>): Promise<T> {
  const budget: RetryBudget = { attemptsUsed: 0 };
  let first: StreamInterruptedError;
  try {
    return await withRetries(o, budget);
  } catch (err) {
    if (!(err instanceof StreamInterruptedError)) throw err;
    first = err;
  }
  o.emit({ type: 'restart', reason: first.message, discardedText: first.partialText });
  try {
    budget.failingSince ??= Date.now();
    return await withRetries(o, { ...budget, attemptsUsed: first.attempts });
  } catch (err) {
    if (!(err instanceof StreamInterruptedError)) throw err;
    throw new StreamInterruptedError({
      reason: err.reason,
      message: `the model's reply broke off twice, the step is interrupted (last time: ${err.message})`,
      partialText: err.partialText,
      discardedToolCalls: err.discardedToolCalls,
      attempts: err.attempts,
      cause: err,
    });
  }
}

/** A listener that throws must not break the stream it listens to. */
export function safeEmitter(onEvent: ((e: ModelStreamEvent) => void) | undefined): (e: ModelStreamEvent) => void {
  return (e) => {
    try {
      onEvent?.(e);
    } catch {
      // UI rendering bugs stay in the UI; the reply is still assembled and returned.
    }
  };
}

function extend(err: ModelApiError, suffix: string): ModelApiError {
  return new ModelApiError({
    kind: err.kind,
    status: err.status,
    retryable: err.retryable,
    retryAfterMs: err.retryAfterMs,
    code: err.code,
    attempts: err.attempts,
    message: err.message + suffix,
    cause: err.cause,
  });
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
