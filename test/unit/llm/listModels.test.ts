// Select Model's list: the endpoint's GET /models over real HTTP (the scripted model server), the
// key in the header the wire wants, and a clear reason (never a crash) when the list is not there.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { listModels } from '../../../src/core/llm/listModels';
import { ScriptedModelServer } from '../../support/scriptedModel';

async function jsonServer(
  handler: (req: http.IncomingMessage) => { status: number; body: unknown },
): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ ...req.headers, path: req.url });
    const { status, body } = handler(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

describe('listModels', () => {
  test('an OpenAI-compatible endpoint lists its models; the key goes as a Bearer token', async () => {
    const model = await ScriptedModelServer.start({ turns: [], modelId: 'qwen3-coder:30b' });
    try {
      assert.deepEqual(await listModels({ baseUrl: `${model.baseUrl}/`, apiKey: 'sk-1', wire: 'openai' }), ['qwen3-coder:30b']);
      assert.equal(model.requests.at(-1)?.headers.authorization, 'Bearer sk-1');
    } finally {
      await model.close();
    }
  });

  test("Anthropic's list: /v1/models with x-api-key and a version header, whether or not the base URL ends in /v1", async () => {
    const s = await jsonServer(() => ({ status: 200, body: { data: [{ id: 'claude-b' }, { id: 'claude-a' }, { id: 'claude-a' }], has_more: false } }));
    try {
      for (const base of [s.url, `${s.url}/v1`])
        assert.deepEqual(await listModels({ baseUrl: base, apiKey: 'ak', wire: 'anthropic' }), ['claude-a', 'claude-b']);
      assert.ok(s.seen.every((h) => h.path === '/v1/models?limit=1000' && h['x-api-key'] === 'ak' && h['anthropic-version'] && !h.authorization));
    } finally {
      await s.close();
    }
  });

  test('a refusal, a body without a list, or no server: a reason naming the URL', async () => {
    const s = await jsonServer((req) =>
      req.url === '/bad/models' ? { status: 401, body: { error: { message: 'no key' } } } : { status: 200, body: '{"object":"list"}' },
    );
    try {
      await assert.rejects(listModels({ baseUrl: `${s.url}/bad`, wire: 'openai' }), /\/bad\/models answered 401/);
      await assert.rejects(listModels({ baseUrl: `${s.url}/odd`, wire: 'openai' }), /answered without a model list/);
    } finally {
      await s.close();
    }
    await assert.rejects(listModels({ baseUrl: s.url, wire: 'openai', timeoutMs: 2000 }), /did not answer/);
  });
});
