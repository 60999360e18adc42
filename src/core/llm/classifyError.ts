/**
 * Maps whatever the SDK or fetch threw into a ModelApiError: a kind that drives the retry decision
 * and a message naming the endpoint and the setting to check.
 */
import type { APIError } from 'openai';
import { lazyChunk } from '../base/lazyChunks';
import { ModelApiError, type ModelErrorKind } from './errors';
import { parseRetryAfter } from './retryPolicy';
import type { EndpointOrigins } from './config';
import { errorMessage } from '../base';

/** HTTP statuses worth another try: timeouts, conflicts/locks, rate limits and server faults. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
]);
/** Codes meaning the server was never reached (as opposed to a connection that dropped). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/** Never reached, and retrying in seconds will not change that: nothing listens there, or no such host. */
const NOT_THERE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND']);
const NETWORK_MESSAGES = /socket hang up|premature close|terminated|other side closed|fetch failed|network|ECONNRESET|ECONNREFUSED/i;

/** Codes and messages along an error's `cause` chain (undici nests the useful part two levels deep). */
function causeChain(err: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && depth < 6; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string') codes.push(e.code);
    if (typeof e.message === 'string') messages.push(e.message);
    current = e.cause;
  }
  return { codes, messages };
}

/** True for the errors a dropped or refused connection produces, at any depth of `cause`. */
export function isNetworkError(err: unknown): boolean {
  if (err instanceof lazyChunk.openai().APIConnectionError) return true;
  const { codes, messages } = causeChain(err);
  return codes.some((c) => NETWORK_CODES.has(c)) || messages.some((m) => NETWORK_MESSAGES.test(m));
}

export function describeNetworkError(err: unknown): string {
  const { codes, messages } = causeChain(err);
  const code = codes.find((c) => NETWORK_CODES.has(c));
  const detail = messages.filter((m) => m && m !== 'Connection error.').at(-1) ?? 'connection failed';
  return code && !detail.includes(code) ? `${detail} (${code})` : detail;
}

/**
 * The human part of an API error body, in every shape servers send: `{error: {message}}` (OpenAI and
 * most), `{error: "text"}` (Ollama, llama.cpp's older builds), older vLLM's flat `{object: "error",
 * message}` (kept whole by errorBodies.ts), plain text or an HTML error page (a proxy's).
 */
function serverMessage(err: APIError): string {
  const body = err.error as unknown;
  if (typeof body === 'string') return readableText(body);
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown; detail?: unknown };
    for (const m of [b.message, b.error, b.detail]) {
      if (typeof m === 'string' && m) return readableText(m);
      if (m && typeof m === 'object' && typeof (m as { message?: unknown }).message === 'string') return readableText((m as { message: string }).message);
    }
    return JSON.stringify(body);
  }
  const text = err.message.replace(/^\d{3}\s+/, '');
  return text === 'status code (no body)' ? 'no body' : readableText(text);
}

/** An HTML page's title (or its text without tags); other text as it is. */
function readableText(text: string): string {
  if (!/<\/?(html|body|head|title|h1|p|div)\b/i.test(text)) return text.trim();
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
  return plain || 'an HTML page without text';
}

function bodyField(err: APIError, field: 'code' | 'type'): string | undefined {
  const body = err.error as Record<string, unknown> | undefined;
  const v = body && typeof body === 'object' ? body[field] : undefined;
  return typeof v === 'string' ? v : undefined;
}

const QUOTA = /insufficient_quota|quota|billing|credit|payment required/i;
/**
 * A prompt over the model's window, in the words of OpenAI ("maximum context length",
 * context_length_exceeded), Anthropic ("prompt is too long"), Gemini ("input token count ... exceeds"),
 * Groq and Cerebras ("reduce the length of the messages"), llama.cpp (exceed_context_size_error,
 * "exceeds the available context size"), Together/TGI ("inputs tokens + max_new_tokens must be <="),
 * Ollama and LM Studio ("context length", "context overflow"), vLLM and DeepSeek ("maximum context length").
 */
const CONTEXT =
  /context_length_exceeded|exceed_context_size|context[ _-]?(length|window|size|overflow)|maximum context|too many tokens|prompt is too long|exceeds? the (model|context|maximum)|input token count|reduce the length of the messages|tokens \+ `?max_new_tokens`? must be|prompt too long|too long for (the )?(model|context)/i;

/** True when an error (a status error or one sent inside the stream) says the prompt is too long. */
export function isContextOverflowText(text: string): boolean {
  return CONTEXT.test(text);
}

export interface ClassifyContext {
  /** The endpoint, for messages ("401 from http://host/v1: ..."). */
  baseUrl: string;
  model: string;
  /** Where the base URL, the model and the key came from, so a hint names the value really in effect. */
  origins?: EndpointOrigins;
}

/** The hint's words for each value: where it came from, or the setting's name when the host did not say. */
function originsOf(ctx: ClassifyContext): EndpointOrigins {
  return (
    ctx.origins ?? { baseUrl: 'patchpilot.llm.baseUrl', model: 'patchpilot.llm.model', apiKey: 'the configured API key', apiKeyHelp: 'configure an API key' }
  );
}

function classifyStatusError(err: APIError & { status: number }, ctx: ClassifyContext): ModelApiError {
  const status = err.status;
  const said = serverMessage(err).slice(0, 500);
  const code = bodyField(err, 'code') ?? bodyField(err, 'type');
  const where = `${status} from ${ctx.baseUrl}`;
  const retryAfterMs = parseRetryAfter(err.headers);
  const text = `${code ?? ''} ${said}`;
  const make = (kind: ModelErrorKind, hint: string, retryable = false) =>
    new ModelApiError({
      kind,
      status,
      retryable,
      code,
      retryAfterMs,
      message: `${where}: ${hint} (server said: ${said})`,
      cause: err,
    });

  const from = originsOf(ctx);
  const keyHint = from.apiKey ? `the API key from ${from.apiKey} was refused: check it` : `no API key was sent and the server wants one: ${from.apiKeyHelp}`;
  if (status === 401) return make('auth', keyHint);
  if (status === 403) {
    return make(
      'auth',
      from.apiKey ? `the API key from ${from.apiKey} may not use model "${ctx.model}" (from ${from.model}): check the key and the model` : keyHint,
    );
  }
  if (status === 402 || (status === 429 && QUOTA.test(text))) {
    return make('quota', 'the account is out of quota or credit: check billing with the provider; not retrying');
  }
  if (status === 429) return make('rate-limit', 'rate limited', true);
  // Some servers answer an over-long prompt with 413, 422 or even 500 (older llama.cpp): the words decide.
  if ((status === 400 || status === 413 || status === 422 || status >= 500) && CONTEXT.test(text)) {
    return make('context-overflow', `the conversation is longer than model "${ctx.model}" accepts: it must be shortened`);
  }
  if (status === 404)
    return make('bad-request', `not found: check the base URL (from ${from.baseUrl}) and that model "${ctx.model}" (from ${from.model}) exists there`);
  if (status === 408) return make('timeout', 'the server timed out the request', true);
  if (isRetryableStatus(status)) return make('server', 'server error', true);
  return make('bad-request', 'the server rejected the request');
}

/** Classifies an error thrown while no output had been streamed yet. */
export function classifyError(err: unknown, ctx: ClassifyContext): ModelApiError {
  if (err instanceof ModelApiError) return err;
  const { APIConnectionTimeoutError, APIError } = lazyChunk.openai();
  if (err instanceof APIConnectionTimeoutError) {
    return new ModelApiError({
      kind: 'timeout',
      retryable: true,
      message: `no response from ${ctx.baseUrl} in time`,
      cause: err,
    });
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    return classifyStatusError(err as APIError & { status: number }, ctx);
  }
  if (isNetworkError(err)) {
    const unreachable = causeChain(err).codes.some((c) => UNREACHABLE_CODES.has(c));
    const refused = causeChain(err).codes.some((c) => NOT_THERE_CODES.has(c));
    return new ModelApiError({
      // A refused connection or an unknown host will not answer a second later: reported once (the
      // setting is what needs fixing); a dropped connection or a DNS hiccup is worth another try.
      kind: refused ? 'unreachable' : 'network',
      retryable: !refused,
      message: unreachable
        ? `could not reach ${ctx.baseUrl}: ${describeNetworkError(err)}; is the server running? check the base URL (from ${originsOf(ctx).baseUrl})`
        : `the connection to ${ctx.baseUrl} failed: ${describeNetworkError(err)}`,
      cause: err,
    });
  }
  if (err instanceof APIError) {
    // An error object sent inside an SSE stream (no HTTP status): a provider-side failure.
    const said = serverMessage(err);
    const quota = QUOTA.test(said);
    const overflow = CONTEXT.test(`${err.code ?? ''} ${said}`);
    return new ModelApiError({
      kind: quota ? 'quota' : overflow ? 'context-overflow' : 'server',
      retryable: !quota && !overflow,
      code: err.code ?? undefined,
      message: `${ctx.baseUrl} reported an error in the stream: ${said}`,
      cause: err,
    });
  }
  const message = errorMessage(err);
  return new ModelApiError({
    kind: 'server',
    retryable: false,
    message: `unexpected reply from ${ctx.baseUrl}: ${message}`,
    cause: err,
  });
}
