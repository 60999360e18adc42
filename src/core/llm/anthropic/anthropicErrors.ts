/**
 * Anthropic SDK errors in the shape of the `openai` SDK's, so the one classifier (classifyError.ts)
 * decides for both clients: the same kinds, retry decisions, Retry-After handling and hints. 529
 * overloaded_error is a retryable server fault, 429 a rate limit (its retry-after honoured), 400
 * "prompt is too long" a context overflow, an `error` event inside the stream a provider failure.
 */
import { lazyChunk } from '../../base/lazyChunks';

/** Anthropic's body is `{type: "error", error: {type, message}}`; the classifier reads the inner object. */
function innerError(body: unknown): object | undefined {
  if (body && typeof body === 'object') {
    const inner = (body as { error?: unknown }).error;
    return inner && typeof inner === 'object' ? inner : body;
  }
  return typeof body === 'string' && body ? { message: body } : undefined;
}

/**
 * Anthropic words a too-long request two ways ("prompt is too long: 215304 tokens > 200000 maximum",
 * "input length and `max_tokens` exceed context limit: ..."): both get OpenAI's code, so both are
 * a context overflow (compact, then retry) for the classifier.
 */
const ANTHROPIC_CONTEXT = /prompt is too long|exceeds? (the )?context (limit|window)/i;

function withContextCode(inner: object | undefined): object | undefined {
  const message = (inner as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && ANTHROPIC_CONTEXT.test(message) ? { ...inner, code: 'context_length_exceeded' } : inner;
}

export function toClassifiableError(err: unknown): unknown {
  const { Anthropic } = lazyChunk.anthropic();
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = lazyChunk.openai();
  if (err instanceof Anthropic.APIConnectionTimeoutError) return new APIConnectionTimeoutError({ message: err.message });
  if (err instanceof Anthropic.APIUserAbortError) return err;
  if (err instanceof Anthropic.APIConnectionError) return new APIConnectionError({ message: err.message, cause: err.cause instanceof Error ? err.cause : err });
  if (err instanceof Anthropic.APIError) {
    const converted = new APIError(err.status, withContextCode(innerError(err.error)), err.status ? undefined : err.message, err.headers);
    return Object.assign(converted, { cause: err });
  }
  return err;
}
