// What each kind of server says about a model's window, asked over real HTTP (a loopback server
// answering with each server's body shape), and what happens when it says nothing usable.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveModelConfig } from '../../../src/core/llm/config';
import { OLLAMA_DEFAULT_NUM_CTX, clearEndpointLimitsCache, endpointLimits } from '../../../src/core/llm/endpointInfo';
import { ModelLimits } from '../../../src/core/llm/modelLimits';
import { ModelClient } from '../../../src/core/llm';

type Route = { status?: number; body?: unknown; raw?: string; hang?: boolean };

interface Served {
  baseUrl: string;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A loopback server answering `routes` ("GET /v1/models") and 404 to anything else. */
async function serve(routes: Record<string, Route>): Promise<Served> {
  const requests: Served['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const route = routes[`${req.method} ${path}`];
      if (route?.hang) return; // never answers
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'not found' }));
      }
      res.writeHead(route.status ?? 200, { 'content-type': 'application/json' });
      res.end(route.raw ?? JSON.stringify(route.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let open: Served | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
  clearEndpointLimitsCache();
});

async function ask(routes: Record<string, Route>, model: string, timeoutMs?: number) {
  open = await serve(routes);
  return endpointLimits({ baseUrl: open.baseUrl, model, headers: {}, ...(timeoutMs ? { timeoutMs } : {}) });
}

const list = (...entries: object[]) => ({ body: { object: 'list', data: entries } });

describe('the window each kind of server reports', () => {
  test('OpenRouter: context_length and top_provider.max_completion_tokens in /v1/models', async () => {
    const r = await ask(
      {
        'GET /v1/models': list(
          { id: 'other/model', context_length: 1 },
          { id: 'vendor/new-model', context_length: 163_840, top_provider: { context_length: 163_840, max_completion_tokens: 32_768 } },
        ),
      },
      'vendor/new-model',
    );
    assert.equal(r?.contextWindow, 163_840);
    assert.equal(r?.maxOutputTokens, 32_768);
    assert.deepEqual([r?.from, r?.detail], ["the endpoint's /v1/models", 'context_length']);
    assert.equal(r?.local, false);
    // A window the server runs with was listed: none of the local runtimes' routes was asked.
    assert.deepEqual(
      open!.requests.map((q) => q.path),
      ['/v1/models'],
    );
  });

  test('vLLM: max_model_len, a local runtime', async () => {
    const r = await ask({ 'GET /v1/models': list({ id: 'Qwen/Qwen3-32B', owned_by: 'vllm', max_model_len: 32_768 }) }, 'Qwen/Qwen3-32B');
    assert.deepEqual([r?.contextWindow, r?.server, r?.local], [32_768, 'vllm', true]);
  });

  test('a server listing one model (llama.cpp answers any name with it): that model, whatever it is called', async () => {
    const r = await ask({ 'GET /v1/models': list({ id: '/models/qwen2.5-coder-7b-q4_k_m.gguf', owned_by: 'llamacpp', max_model_len: 16_384 }) }, 'local');
    assert.equal(r?.contextWindow, 16_384);
  });

  test('Groq: context_window', async () => {
    const r = await ask({ 'GET /v1/models': list({ id: 'fresh-model', context_window: 131_072 }) }, 'fresh-model');
    assert.equal(r?.contextWindow, 131_072);
  });

  test('LM Studio: loaded_context_length of /api/v0/models/<id> (what it runs with), over max_context_length', async () => {
    const r = await ask(
      {
        'GET /v1/models': list({ id: 'qwen/qwen3-8b', object: 'model', owned_by: 'organization_owner' }),
        'GET /api/v0/models/qwen%2Fqwen3-8b': { body: { id: 'qwen/qwen3-8b', state: 'loaded', max_context_length: 131_072, loaded_context_length: 16_384 } },
      },
      'qwen/qwen3-8b',
    );
    assert.deepEqual([r?.contextWindow, r?.server, r?.from, r?.detail], [16_384, 'lm-studio', "the endpoint's /api/v0/models", 'loaded_context_length']);
  });

  test('LM Studio: its model list (/api/v0/models) when the per-model route is missing; a model not loaded gives its maximum', async () => {
    const r = await ask(
      {
        'GET /api/v0/models': list(
          { id: 'other', state: 'loaded', loaded_context_length: 4_096 },
          { id: 'mistral-small', state: 'not-loaded', max_context_length: 32_768 },
        ),
      },
      'mistral-small',
    );
    assert.deepEqual([r?.contextWindow, r?.detail, r?.local], [32_768, 'max_context_length', true]);
  });

  test('llama.cpp: /props n_ctx (what the server runs with) over meta.n_ctx_train (what the model was trained for)', async () => {
    const models = list({ id: 'model.gguf', owned_by: 'llamacpp', meta: { n_ctx_train: 131_072 } });
    const r = await ask({ 'GET /v1/models': models, 'GET /props': { body: { default_generation_settings: { n_ctx: 8_192 }, total_slots: 1 } } }, 'model.gguf');
    assert.deepEqual([r?.contextWindow, r?.from, r?.detail, r?.local], [8_192, "the endpoint's /props", 'n_ctx', true]);
    await open!.close();
    clearEndpointLimitsCache();
    const trainedOnly = await ask({ 'GET /v1/models': models }, 'model.gguf');
    assert.deepEqual([trainedOnly?.contextWindow, trainedOnly?.detail], [131_072, 'meta.n_ctx_train']);
  });

  test('Ollama: num_ctx of /api/show parameters wins over the trained context_length', async () => {
    const r = await ask(
      {
        'GET /v1/models': list({ id: 'qwen3:32b', object: 'model', owned_by: 'library' }),
        'POST /api/show': {
          body: {
            model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960 },
            parameters: 'temperature 0.6\nnum_ctx                        32768\ntop_k 20',
          },
        },
      },
      'qwen3:32b',
    );
    assert.deepEqual([r?.contextWindow, r?.server, r?.from, r?.detail], [32_768, 'ollama', "the endpoint's /api/show", 'num_ctx']);
    const show = open!.requests.find((q) => q.path === '/api/show');
    assert.equal(JSON.parse(show!.body).model, 'qwen3:32b');
  });

  test('Ollama without num_ctx: its small default, with a warning that says how to raise it', async () => {
    const r = await ask({ 'POST /api/show': { body: { model_info: { 'llama.context_length': 131_072 }, parameters: 'stop "<|eot_id|>"' } } }, 'llama3.1:8b');
    assert.equal(r?.contextWindow, OLLAMA_DEFAULT_NUM_CTX);
    assert.match(r!.warning!, /default context of 4,096 tokens \(the model supports 131,072\).*num_ctx/);
  });

  test('Ollama: the context of a loaded model (/api/ps) is what it runs with', async () => {
    const r = await ask(
      {
        'GET /api/ps': { body: { models: [{ name: 'qwen3:32b', model: 'qwen3:32b', context_length: 16_384 }] } },
        'POST /api/show': { body: { model_info: { 'qwen3.context_length': 40_960 }, parameters: '' } },
      },
      'qwen3:32b',
    );
    assert.deepEqual([r?.contextWindow, r?.from, r?.detail], [16_384, "the endpoint's /api/ps", 'context_length of the loaded model']);
  });
});

describe('nothing usable: a clean fall back', () => {
  const bad: [string, Record<string, Route>][] = [
    ['a 500', { 'GET /v1/models': { status: 500, body: { error: { message: 'boom' } } } }],
    ['HTML', { 'GET /v1/models': { raw: '<html>hello</html>' } }],
    ['JSON of another shape', { 'GET /v1/models': { body: { data: 'x' } } }],
    ['a negative and a string window', { 'GET /v1/models': list({ id: 'm', context_length: -5, max_model_len: 'big' }) }],
    ['a list of other models', { 'GET /v1/models': list({ id: 'someone-else', context_length: 4096 }, { id: 'another', context_length: 4096 }) }],
    ['/api/show of another shape', { 'POST /api/show': { body: { hello: 'world' } } }],
  ];
  for (const [name, routes] of bad) {
    test(`${name}: the endpoint said nothing`, async () => {
      const r = await ask(routes, 'm');
      assert.equal(r?.contextWindow, undefined);
    });
  }

  test('a server that never answers: given up after the timeout', async () => {
    const started = Date.now();
    const r = await ask({ 'GET /v1/models': { hang: true }, 'POST /api/show': { hang: true }, 'GET /props': { hang: true } }, 'm', 1_000);
    assert.equal(r, undefined);
    // About one timeout: the local routes only get what is left of it (at least 0.5 s).
    assert.ok(Date.now() - started < 1_900, `took ${Date.now() - started} ms`);
  });

  test('a probe cut short by a cancelled run is not remembered: the next run asks again', async () => {
    open = await serve({ 'GET /v1/models': list({ id: 'm', max_model_len: 32_768 }) });
    const cancelled = new AbortController();
    cancelled.abort();
    assert.equal(await endpointLimits({ baseUrl: open.baseUrl, model: 'm', headers: {}, signal: cancelled.signal }), undefined);
    assert.equal((await endpointLimits({ baseUrl: open.baseUrl, model: 'm', headers: {} }))?.contextWindow, 32_768);
  });

  test('a refused connection: nothing, at once', async () => {
    const r = await endpointLimits({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', headers: {} });
    assert.equal(r, undefined);
  });
});

describe('the client: precedence, cache, and what a local runtime costs', () => {
  test('an unknown model gets the endpoint window, said where from; asked once per base URL and model', async () => {
    open = await serve({ 'GET /v1/models': list({ id: 'no-catalog-knows-me', max_model_len: 32_768, owned_by: 'vllm' }) });
    const client = new ModelClient({ baseUrl: open.baseUrl, model: 'no-catalog-knows-me', apiKey: 'sk-test' });
    assert.equal(client.contextWindow('reasoning').source, 'fallback');
    const w = await client.resolveContextWindow('reasoning');
    assert.deepEqual([w.tokens, w.source, w.from, w.detail], [32_768, 'endpoint', "the endpoint's /v1/models", 'max_model_len']);
    assert.equal(client.contextWindow('reasoning').tokens, 32_768);
    // Asked as the chat is: with the key.
    assert.equal(open.requests[0]!.headers.authorization, 'Bearer sk-test');
    const again = new ModelClient({ baseUrl: open.baseUrl, model: 'no-catalog-knows-me' });
    await again.resolveContextWindow('reasoning');
    assert.equal(open.requests.length, 1);
  });

  test("the user's setting wins, and the endpoint is not even asked", async () => {
    open = await serve({ 'GET /v1/models': list({ id: 'm', max_model_len: 32_768 }) });
    const client = new ModelClient({ baseUrl: open.baseUrl, model: 'm', contextWindows: { m: 65_536 } });
    const w = await client.resolveContextWindow('reasoning');
    assert.deepEqual([w.tokens, w.source], [65_536, 'setting']);
    assert.equal(open.requests.length, 0);
  });

  test('the endpoint wins over the catalog (a server runs a known model with a shorter context)', async () => {
    open = await serve({ 'GET /v1/models': list({ id: 'gpt-oss-120b', max_model_len: 16_384, owned_by: 'vllm' }) });
    const w = await new ModelClient({ baseUrl: open.baseUrl, model: 'gpt-oss-120b' }).resolveContextWindow('reasoning');
    assert.deepEqual([w.tokens, w.source], [16_384, 'endpoint']);
  });

  test('a silent endpoint: the catalog, else the fallback', async () => {
    open = await serve({});
    assert.equal((await new ModelClient({ baseUrl: open.baseUrl, model: 'gpt-4o' }).resolveContextWindow('reasoning')).source, 'catalog');
    const unknown = await new ModelClient({ baseUrl: open.baseUrl, model: 'no-catalog-knows-me' }).resolveContextWindow('reasoning');
    assert.deepEqual([unknown.tokens, unknown.source, unknown.known], [8_192, 'fallback', false]);
  });

  test('a model served by a local runtime has no catalog list price; the same name elsewhere has, and the setting always wins', async () => {
    open = await serve({ 'GET /v1/models': list({ id: 'gpt-oss-120b', max_model_len: 131_072, owned_by: 'vllm' }) });
    const local = new ModelLimits(resolveModelConfig({ baseUrl: open.baseUrl, model: 'gpt-oss-120b' }));
    await local.resolve('reasoning');
    assert.equal(local.price('reasoning'), undefined);
    const priced = new ModelLimits(resolveModelConfig({ baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-oss-120b' }));
    await priced.resolve('reasoning');
    assert.ok(priced.price('reasoning'));
    const configured = new ModelLimits(
      resolveModelConfig({ baseUrl: open.baseUrl, model: 'gpt-oss-120b', prices: { 'gpt-oss-120b': { input: 0.1, output: 0.2 } } }),
    );
    await configured.resolve('reasoning');
    assert.deepEqual(configured.price('reasoning'), { input: 0.1, output: 0.2 });
  });
});
