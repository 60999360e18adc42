/**
 * The model ids an endpoint offers (GET /models), for the setup flow's model list. OpenAI-compatible
 * servers answer `{data: [{id}]}` with a Bearer key; Anthropic's API the same shape under /v1/models
 * with its own key header. Fails with a short reason; the caller then asks for a name instead.
 */
import { errorMessage } from '../base';

export interface ListModelsOptions {
  baseUrl: string;
  apiKey?: string;
  wire: 'openai' | 'anthropic';
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function listModels(o: ListModelsOptions): Promise<string[]> {
  const base = o.baseUrl.replace(/\/+$/, '');
  const anthropic = o.wire === 'anthropic';
  const url = anthropic ? `${base.replace(/\/v1$/, '')}/v1/models?limit=1000` : `${base}/models`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (o.apiKey) {
    if (anthropic) headers['x-api-key'] = o.apiKey;
    else headers.authorization = `Bearer ${o.apiKey}`;
  }
  if (anthropic) headers['anthropic-version'] = '2023-06-01';
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 15_000);
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout, redirect: 'error' });
  } catch (err) {
    throw new Error(`${url} did not answer: ${errorMessage(err)}`);
  }
  if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}`.trim());
  const body = (await res.json().catch(() => undefined)) as { data?: unknown; models?: unknown } | undefined;
  // `models` is Ollama's native /api/tags shape, which some proxies pass through.
  const list = Array.isArray(body?.data) ? body.data : Array.isArray(body?.models) ? body.models : undefined;
  if (!list) throw new Error(`${url} answered without a model list`);
  const ids = list.map((m: unknown) =>
    m && typeof m === 'object' ? ((m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name) : undefined,
  );
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id.trim() !== ''))].sort();
}
