/**
 * Model client settings: validated once, with defaults, into one endpoint per role. The settings
 * reader (host or CLI) passes the raw values in; problems come back all at once as ModelConfigError.
 */
import { ModelConfigError } from './errors';
import { priceTableFromSettings, type PriceTable } from './prices';
import { defaultRetryPolicy, type RetryPolicy } from './retryPolicy';
import type { ModelRole } from './types';

export interface ModelClientConfig {
  /** Any OpenAI-compatible base URL, ending before `/chat/completions` (e.g. http://127.0.0.1:11434/v1). */
  baseUrl: string;
  /** Omit for servers that need no key (Ollama, LM Studio, llama.cpp, vLLM without --api-key). */
  apiKey?: string;
  model: string;
  /** The cheap model for summaries and Q&A; defaults to `model`. */
  fastModel?: string;
  /** Defaults to `baseUrl`. */
  fastBaseUrl?: string;
  /** Defaults to `apiKey` when the fast model uses the same base URL, else none. */
  fastApiKey?: string;
  /** Extra headers on every request (e.g. OpenRouter's HTTP-Referer / X-Title). */
  headers?: Record<string, string>;
  /** Azure OpenAI: sent as the `api-version` query parameter. */
  apiVersion?: string;
  /** How the key is sent: `Authorization: Bearer` (default) or Azure's `api-key` header. */
  apiKeyHeader?: 'authorization' | 'api-key';
  /** Longest silence between two streamed chunks before the stream counts as stalled. Default 60 s. */
  idleTimeoutMs?: number;
  /** Longest wait for the first chunk (reasoning models think before they speak). Default 120 s. */
  firstChunkTimeoutMs?: number;
  /** Requests per step, the first included. Default 4. */
  maxAttempts?: number;
  /** Time budget for retrying one step. Default 60 s. */
  maxRetryTimeMs?: number;
  /** The `patchpilot.llm.prices` setting: overrides/extends the default price table. */
  prices?: unknown;
  /** Per-model context window overrides, in tokens. */
  contextWindows?: Record<string, number>;
  /**
   * Where each value came from, in the host's words ("--base-url", "$PATCHPILOT_MODEL",
   * "patchpilot.llm.baseUrl in user settings"), so an error names what to change. Defaults: the setting names.
   */
  origins?: { baseUrl?: string; model?: string; fastModel?: string; apiKey?: string };
  /** How a user of this host sets a key ("set PATCHPILOT_API_KEY ...", "run PatchPilot: Set API Key"). */
  apiKeyHelp?: string;
  /** Replaces the network (a model served by a local program, localProgram/programFetch.ts). */
  fetch?: typeof fetch;
  /** What messages call the endpoint when it is not a URL ("the model program `node model.js`"). */
  endpointLabel?: string;
}

/** Where an endpoint's values came from, for error hints (classifyError.ts). */
export interface EndpointOrigins {
  baseUrl: string;
  model: string;
  /** Undefined when no key is sent. */
  apiKey: string | undefined;
  apiKeyHelp: string;
}

export interface Endpoint {
  role: ModelRole;
  baseUrl: string;
  /** What messages call it: the base URL, or the program serving the model. */
  label: string;
  apiKey: string | undefined;
  model: string;
  origins: EndpointOrigins;
}

export interface ResolvedModelConfig {
  endpoints: Record<ModelRole, Endpoint>;
  headers: Record<string, string>;
  apiVersion: string | undefined;
  apiKeyHeader: 'authorization' | 'api-key';
  idleTimeoutMs: number;
  firstChunkTimeoutMs: number;
  retry: RetryPolicy;
  prices: PriceTable;
  contextWindows: Record<string, number>;
  fetch: typeof fetch | undefined;
}

function checkUrl(name: string, value: unknown, problems: string[]): string {
  if (typeof value !== 'string' || !value.trim()) {
    problems.push(`${name} is required (an OpenAI-compatible base URL such as http://127.0.0.1:11434/v1)`);
    return '';
  }
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    problems.push(`${name} "${value}" is not an http(s) URL`);
  }
  return value.trim().replace(/\/+$/, '');
}

function checkPositive(name: string, value: unknown, fallback: number, problems: string[], integer = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    problems.push(`${name} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}`);
    return fallback;
  }
  return value;
}

export function resolveModelConfig(config: ModelClientConfig): ResolvedModelConfig {
  const problems: string[] = [];
  const baseUrl = checkUrl('patchpilot.llm.baseUrl', config.baseUrl, problems);
  const fastBaseUrl = config.fastBaseUrl ? checkUrl('patchpilot.llm.fastBaseUrl', config.fastBaseUrl, problems) : baseUrl;
  if (typeof config.model !== 'string' || !config.model.trim()) problems.push('patchpilot.llm.model is required');
  if (config.fastModel !== undefined && (typeof config.fastModel !== 'string' || !config.fastModel.trim())) {
    problems.push('patchpilot.llm.fastModel must be a model name when set');
  }
  if (config.apiKeyHeader && config.apiKeyHeader !== 'authorization' && config.apiKeyHeader !== 'api-key') {
    problems.push(`apiKeyHeader must be "authorization" or "api-key"`);
  }
  const idleTimeoutMs = checkPositive('idleTimeoutMs', config.idleTimeoutMs, 60_000, problems);
  const firstChunkTimeoutMs = checkPositive('firstChunkTimeoutMs', config.firstChunkTimeoutMs, 120_000, problems);
  const maxAttempts = checkPositive('maxAttempts', config.maxAttempts, defaultRetryPolicy.maxAttempts, problems, true);
  const maxRetryTimeMs = checkPositive('maxRetryTimeMs', config.maxRetryTimeMs, defaultRetryPolicy.maxRetryTimeMs, problems);
  let prices: PriceTable = {};
  try {
    prices = priceTableFromSettings(config.prices);
  } catch (err) {
    problems.push(...((err as ModelConfigError).problems ?? [String(err)]));
  }
  if (problems.length) throw new ModelConfigError(problems);

  const key = config.apiKey?.trim() || undefined;
  const fastKey = config.fastApiKey?.trim() || (fastBaseUrl === baseUrl ? key : undefined);
  const model = config.model.trim();
  const o = config.origins ?? {};
  const apiKeyHelp = config.apiKeyHelp ?? 'configure an API key';
  const origins = (modelOrigin: string, baseUrlOrigin: string, sentKey: string | undefined): EndpointOrigins => ({
    baseUrl: baseUrlOrigin,
    model: modelOrigin,
    apiKey: sentKey ? (sentKey === key ? (o.apiKey ?? 'the configured API key') : "the fast model's API key") : undefined,
    apiKeyHelp,
  });
  const reasoningOrigins = origins(o.model ?? 'patchpilot.llm.model', o.baseUrl ?? 'patchpilot.llm.baseUrl', key);
  const fastModelOrigin = config.fastModel?.trim() ? (o.fastModel ?? 'patchpilot.llm.fastModel') : reasoningOrigins.model;
  return {
    endpoints: {
      reasoning: { role: 'reasoning', baseUrl, label: config.endpointLabel ?? baseUrl, apiKey: key, model, origins: reasoningOrigins },
      fast: {
        role: 'fast',
        baseUrl: fastBaseUrl,
        label: config.endpointLabel && fastBaseUrl === baseUrl ? config.endpointLabel : fastBaseUrl,
        apiKey: fastKey,
        model: config.fastModel?.trim() || model,
        origins: origins(fastModelOrigin, config.fastBaseUrl ? "the fast model's base URL" : reasoningOrigins.baseUrl, fastKey),
      },
    },
    headers: { ...(config.headers ?? {}) },
    apiVersion: config.apiVersion,
    apiKeyHeader: config.apiKeyHeader ?? 'authorization',
    idleTimeoutMs,
    firstChunkTimeoutMs,
    retry: { ...defaultRetryPolicy, maxAttempts, maxRetryTimeMs },
    prices,
    contextWindows: { ...(config.contextWindows ?? {}) },
    fetch: config.fetch,
  };
}
