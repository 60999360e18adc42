/**
 * Anthropic SDK errors in the shape of the `openai` SDK's, so the one classifier (classifyError.ts)
 * decides for both clients: the same kinds, retry decisions, Retry-After handling and hints. 529
 * overloaded_error is a retryable server fault, 429 a rate limit (its retry-after honoured), 400
 * "prompt is too long" a context overflow, an `error` event inside the stream a provider failure.
 */
import Anthropic from '@anthropic-ai/sdk';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';

/** Anthropic's body is `{type: "error", error: {type, message}}`; the classifier reads the inner object. */
function innerError(body: unknown): object | undefined {
  if (body && typeof body === 'object') {
    const inner = (body as { error?: unknown }).error;
    return inner && typeof inner === 'object' ? inner : body;
  }
  return typeof body === 'string' && body ? { message: body } : undefined;
}

export function toClassifiableError(err: unknown): unknown {
  if (err instanceof Anthropic.APIConnectionTimeoutError) return new APIConnectionTimeoutError({ message: err.message });
  if (err instanceof Anthropic.APIUserAbortError) return err;
  if (err instanceof Anthropic.APIConnectionError) return new APIConnectionError({ message: err.message, cause: err.cause instanceof Error ? err.cause : err });
  if (err instanceof Anthropic.APIError) {
    const converted = new APIError(err.status, innerError(err.error), err.status ? undefined : err.message, err.headers);
    return Object.assign(converted, { cause: err });
  }
  return err;
}
