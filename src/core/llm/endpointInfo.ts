/**
 * Asks the endpoint what window a model has, once per (base URL, model) and process, with a short
 * timeout: first `GET {baseUrl}/models`; when that names no window the server runs with, the local
 * runtimes' own routes on the server root (the base URL without `/v1`): Ollama's `/api/ps` and
 * `/api/show`, llama.cpp's `/props`, LM Studio's `/api/v0/models/<id>`. Every failure (refused,
 * timed out, 404, not JSON, another shape) only means "the endpoint did not say": the caller then
 * uses the catalog. Shapes are read in endpointShapes.ts.
 */
import { errorMessage } from '../base/errors';
import type { DiscoveredLimits } from './contextWindows';
import {
  LOCAL_RUNTIMES,
  limitsFromLlamaCppProps,
  limitsFromLmStudio,
  limitsFromModelsList,
  limitsFromOllamaPs,
  limitsFromOllamaShow,
  type ServerKind,
  type ShapeLimits,
} from './endpointShapes';

/** Per request; a server that takes longer to list its models is treated as silent. */
export const PROBE_TIMEOUT_MS = 2_500;
/** The local runtimes' routes always get at least this long. */
const MIN_LOCAL_PROBE_MS = 500;
/** A remembered answer is asked again after this long (a server restarted with another context). */
const CACHE_MS = 10 * 60_000;
/**
 * Ollama runs a model with this context unless `num_ctx` (Modelfile, request options) or the
 * server's OLLAMA_CONTEXT_LENGTH says otherwise, whatever the model was trained for; a longer
 * prompt is cut from the front without an error.
 */
export const OLLAMA_DEFAULT_NUM_CTX = 4_096;

export interface EndpointLimits extends DiscoveredLimits {
  server?: ServerKind;
  /** A local runtime (Ollama, llama.cpp, LM Studio, vLLM): no catalog list price applies. */
  local: boolean;
}

export interface ProbeTarget {
  baseUrl: string;
  model: string;
  /** Auth and custom headers, as the chat requests send them. */
  headers: Record<string, string>;
  query?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const cache = new Map<string, { at: number; result: Promise<EndpointLimits | undefined> }>();

/** The endpoint's limits for the model, from the cache when asked within the last minutes. */
export function endpointLimits(target: ProbeTarget): Promise<EndpointLimits | undefined> {
  const key = `${target.baseUrl}\n${target.model}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.result;
  // A probe cut short by a cancelled run says nothing about the server: not remembered.
  const result = probeEndpoint(target).catch(() => {
    if (cache.get(key)?.result === result) cache.delete(key);
    return undefined;
  });
  cache.set(key, { at: Date.now(), result });
  return result;
}

/** Tests: forget what endpoints said. */
export function clearEndpointLimitsCache(): void {
  cache.clear();
}

async function getJson(url: string, target: ProbeTarget, init: { method?: string; body?: unknown } = {}): Promise<unknown> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(target.query ?? {})) u.searchParams.set(k, v);
  const timeout = AbortSignal.timeout(target.timeoutMs ?? PROBE_TIMEOUT_MS);
  const signal = target.signal ? AbortSignal.any([timeout, target.signal]) : timeout;
  try {
    const res = await fetch(u, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...target.headers },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal,
      redirect: 'error',
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return undefined;
    }
    return JSON.parse(await res.text()) as unknown;
  } catch (err) {
    if (target.signal?.aborted) throw new Error(`cancelled: ${errorMessage(err)}`);
    return undefined;
  }
}

/** The server root: `http://host:11434/v1` -> `http://host:11434`. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function toLimits(s: ShapeLimits, route: string, warning?: string): EndpointLimits {
  return {
    ...(s.contextWindow ? { contextWindow: s.contextWindow } : {}),
    ...(s.maxOutputTokens ? { maxOutputTokens: s.maxOutputTokens } : {}),
    from: `the endpoint's ${route}`,
    detail: s.field,
    ...(s.server ? { server: s.server } : {}),
    local: s.server !== undefined && LOCAL_RUNTIMES.includes(s.server),
    ...(warning ? { warning } : {}),
  };
}

async function probeEndpoint(target: ProbeTarget): Promise<EndpointLimits | undefined> {
  const base = target.baseUrl.replace(/\/+$/, '');
  const started = Date.now();
  const timeoutMs = target.timeoutMs ?? PROBE_TIMEOUT_MS;
  const listed = limitsFromModelsList(await getJson(`${base}/models`, target), target.model);
  // The local routes get what is left of one timeout (local servers answer in milliseconds), so a silent server costs ~1 timeout, not 2.
  const t = { ...target, timeoutMs: Math.max(MIN_LOCAL_PROBE_MS, timeoutMs - (Date.now() - started)) };
  const modelsRoute = `${new URL(base).pathname.replace(/\/+$/, '')}/models`;
  if (listed?.contextWindow && listed.inForce) return toLimits(listed, modelsRoute);

  // No window the server runs with: ask the local runtimes' own routes (only the one that is there answers).
  const root = serverRoot(base);
  const [ps, show, props, lmStudio] = await Promise.all([
    getJson(`${root}/api/ps`, t).then((b) => limitsFromOllamaPs(b, t.model)),
    // `name` for Ollama builds before `model` was accepted.
    getJson(`${root}/api/show`, t, { method: 'POST', body: { model: t.model, name: t.model } }).then(limitsFromOllamaShow),
    getJson(`${root}/props`, t).then(limitsFromLlamaCppProps),
    getJson(`${root}/api/v0/models/${encodeURIComponent(t.model)}`, t)
      .then((b) => limitsFromLmStudio(b, t.model))
      .then(async (one) => one ?? limitsFromLmStudio(await getJson(`${root}/api/v0/models`, t), t.model)),
  ]);
  if (ps) return toLimits(ps, '/api/ps');
  if (show?.inForce) return toLimits(show, '/api/show');
  if (props) return toLimits(props, '/props');
  if (lmStudio?.inForce) return toLimits(lmStudio, '/api/v0/models');
  if (show) {
    const trained = show.contextWindow;
    const tokens = Math.min(trained ?? OLLAMA_DEFAULT_NUM_CTX, OLLAMA_DEFAULT_NUM_CTX);
    const warning =
      `Ollama runs ${t.model} with its default context of ${OLLAMA_DEFAULT_NUM_CTX.toLocaleString('en-US')} tokens` +
      (trained && trained > tokens ? ` (the model supports ${trained.toLocaleString('en-US')})` : '') +
      ` and cuts longer prompts from the front: set num_ctx in a Modelfile (PARAMETER num_ctx 32768) or OLLAMA_CONTEXT_LENGTH on the server, or patchpilot.llm.contextWindows if the server already uses more`;
    return { ...toLimits({ ...show, contextWindow: tokens }, '/api/show', warning), detail: `Ollama's default num_ctx (the model's parameters set none)` };
  }
  if (lmStudio) return toLimits(lmStudio, '/api/v0/models');
  if (listed) return toLimits(listed, modelsRoute);
  return undefined;
}
