/**
 * What each kind of server says about a model's window, read from the bodies it answers with.
 * Pure functions over parsed JSON: a body of another shape yields undefined, never a throw.
 *
 * - `GET /v1/models` (OpenAI shape): `context_length` and `top_provider.{context_length,
 *   max_completion_tokens}` (OpenRouter, Together), `max_model_len` (vLLM), `max_context_length`
 *   (Mistral, LM Studio), `context_window` (Groq), `meta.n_ctx_train` (llama.cpp: what the model was
 *   trained for, not what the server runs with).
 * - Ollama `POST /api/show`: `model_info["<arch>.context_length"]` (trained) and `num_ctx` in
 *   `parameters` (what the server really uses); `GET /api/ps`: `context_length` of a loaded model.
 * - llama.cpp `GET /props`: `default_generation_settings.n_ctx` (what the server runs with).
 * - LM Studio `GET /api/v0/models/<id>`: `loaded_context_length` (loaded) and `max_context_length`.
 */
import { modelNameCandidates } from './modelNames';

export type ServerKind = 'ollama' | 'llama.cpp' | 'lm-studio' | 'vllm' | 'openai-compatible';

/** Local runtimes: no per-token bill, so the catalog's list prices do not apply. */
export const LOCAL_RUNTIMES: readonly ServerKind[] = ['ollama', 'llama.cpp', 'lm-studio', 'vllm'];

export interface ShapeLimits {
  contextWindow?: number;
  maxOutputTokens?: number;
  /** The field read, for messages: `max_model_len`, `num_ctx`. */
  field: string;
  /** True when the number is what the server runs with now, false when it is what the model supports. */
  inForce: boolean;
  server?: ServerKind;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function positiveInt(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

function at(o: Json, path: string): unknown {
  let v: unknown = o;
  for (const k of path.split('.')) v = isObject(v) ? v[k] : undefined;
  return v;
}

/** The entry of `model` in a models list (`{data: [...]}`, `{models: [...]}` or a bare array). */
export function findModelEntry(body: unknown, model: string): Json | undefined {
  const list = Array.isArray(body)
    ? body
    : isObject(body)
      ? Array.isArray(body.data)
        ? body.data
        : Array.isArray(body.models)
          ? body.models
          : undefined
      : undefined;
  if (!list) return isObject(body) && (body.id === model || body.model === model) ? body : undefined;
  const entries = list.filter(isObject);
  const idOf = (e: Json) => [e.id, e.model, e.name].filter((x): x is string => typeof x === 'string');
  const exact = entries.find((e) => idOf(e).includes(model));
  if (exact) return exact;
  const wanted = new Set(modelNameCandidates(model).map((n) => n.toLowerCase()));
  return entries.find((e) => idOf(e).some((id) => modelNameCandidates(id).some((n) => wanted.has(n.toLowerCase()))));
}

/** Window fields of a `/v1/models` entry, in-force fields first. */
const MODELS_WINDOW_FIELDS: readonly { path: string; inForce: boolean; server?: ServerKind }[] = [
  { path: 'max_model_len', inForce: true, server: 'vllm' },
  { path: 'loaded_context_length', inForce: true, server: 'lm-studio' },
  { path: 'context_length', inForce: true },
  { path: 'top_provider.context_length', inForce: true },
  { path: 'context_window', inForce: true },
  { path: 'max_context_length', inForce: true },
  { path: 'meta.n_ctx_train', inForce: false, server: 'llama.cpp' },
];
const OUTPUT_FIELDS = ['top_provider.max_completion_tokens', 'max_completion_tokens', 'max_output_tokens'];

/** The list's one entry: a server that serves one model (llama.cpp) answers to any model name with it. */
function onlyEntry(body: unknown): Json | undefined {
  const list = isObject(body) && Array.isArray(body.data) ? body.data : undefined;
  return list?.length === 1 && isObject(list[0]) ? list[0] : undefined;
}

export function limitsFromModelsList(body: unknown, model: string): ShapeLimits | undefined {
  const entry = findModelEntry(body, model) ?? onlyEntry(body);
  if (!entry) return undefined;
  let maxOutputTokens: number | undefined;
  for (const f of OUTPUT_FIELDS) maxOutputTokens ??= positiveInt(at(entry, f));
  const output = maxOutputTokens ? { maxOutputTokens } : {};
  const owner = typeof entry.owned_by === 'string' ? entry.owned_by : '';
  const server: ServerKind | undefined = owner === 'vllm' ? 'vllm' : owner === 'llamacpp' ? 'llama.cpp' : undefined;
  for (const f of MODELS_WINDOW_FIELDS) {
    const contextWindow = positiveInt(at(entry, f.path));
    if (contextWindow) return { contextWindow, field: f.path, inForce: f.inForce, ...output, ...(f.server || server ? { server: f.server ?? server } : {}) };
  }
  return maxOutputTokens || server ? { field: 'none', inForce: false, ...output, ...(server ? { server } : {}) } : undefined;
}

/** Ollama `/api/show`: `num_ctx` from the Modelfile parameters (in force) or the trained length. */
export function limitsFromOllamaShow(body: unknown): ShapeLimits | undefined {
  if (!isObject(body) || (!isObject(body.model_info) && typeof body.parameters !== 'string' && typeof body.modelfile !== 'string')) return undefined;
  const params = typeof body.parameters === 'string' ? body.parameters : '';
  const numCtx = positiveInt(/^\s*num_ctx\s+(\d+)\s*$/m.exec(params)?.[1]);
  if (numCtx) return { contextWindow: numCtx, field: 'num_ctx', inForce: true, server: 'ollama' };
  const info = isObject(body.model_info) ? body.model_info : {};
  const key = Object.keys(info).find((k) => k.endsWith('.context_length'));
  const trained = key ? positiveInt(info[key]) : undefined;
  return { ...(trained ? { contextWindow: trained } : {}), field: key ?? 'none', inForce: false, server: 'ollama' };
}

/** Ollama `/api/ps`: the context a loaded model runs with. */
export function limitsFromOllamaPs(body: unknown, model: string): ShapeLimits | undefined {
  if (!isObject(body) || !Array.isArray(body.models)) return undefined;
  const entry = findModelEntry(body, model) ?? findModelEntry(body, model.includes(':') ? model : `${model}:latest`);
  const contextWindow = entry ? positiveInt(entry.context_length) : undefined;
  return contextWindow ? { contextWindow, field: 'context_length of the loaded model', inForce: true, server: 'ollama' } : undefined;
}

/** llama.cpp `/props`: the per-slot context the server was started with (`-c` / `--ctx-size`). */
export function limitsFromLlamaCppProps(body: unknown): ShapeLimits | undefined {
  if (!isObject(body)) return undefined;
  const contextWindow = positiveInt(at(body, 'default_generation_settings.n_ctx')) ?? positiveInt(body.n_ctx);
  return contextWindow ? { contextWindow, field: 'n_ctx', inForce: true, server: 'llama.cpp' } : undefined;
}

/** LM Studio `/api/v0/models/<id>` (or its list): the loaded context, else the model's maximum. */
export function limitsFromLmStudio(body: unknown, model: string): ShapeLimits | undefined {
  const entry = findModelEntry(body, model);
  if (!entry) return undefined;
  const loaded = positiveInt(entry.loaded_context_length);
  if (loaded) return { contextWindow: loaded, field: 'loaded_context_length', inForce: true, server: 'lm-studio' };
  const max = positiveInt(entry.max_context_length);
  return max ? { contextWindow: max, field: 'max_context_length', inForce: false, server: 'lm-studio' } : undefined;
}
