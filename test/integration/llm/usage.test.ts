import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clientFor, collectEvents, userAsks, withServer } from './helpers';
import { UsageMeter, type ModelStreamEvent } from '../../../src/core/llm';

const ask = (meter?: UsageMeter) => ({ role: 'reasoning' as const, messages: userAsks('hello'), meter });

describe('usage and cost per request and per run', () => {
  test('a known model: cost from the price table, cached tokens billed at the cached rate', async () => {
    const usage = { promptTokens: 10_000, completionTokens: 2_000, cachedTokens: 4_000 };
    await withServer([{ reply: { text: 'hi', usage } }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server, { model: 'gpt-4o' }).streamChat({ ...ask(), onEvent });
      assert.deepEqual(turn.usage, { promptTokens: 10_000, completionTokens: 2_000, cachedTokens: 4_000, estimated: false });
      // gpt-4o: $2.50 in, $1.25 cached, $10 out per 1M: 6000*2.5 + 4000*1.25 + 2000*10 = 40_000 / 1M.
      assert.equal(turn.cost, 0.04);
      const usageEvent = events.find((e) => e.type === 'usage') as Extract<ModelStreamEvent, { type: 'usage' }>;
      assert.equal(usageEvent.cost, 0.04);
    });
  });

  test('prices from settings override the defaults', async () => {
    await withServer([{ reply: { text: 'hi', usage: { promptTokens: 1_000_000, completionTokens: 1_000_000 } } }], async (server) => {
      const client = clientFor(server, { model: 'my-local', prices: { 'my-local': { input: 0.5, output: 1 } } });
      assert.equal((await client.streamChat(ask())).cost, 1.5);
    });
  });

  test('an unknown model: tokens only, cost undefined', async () => {
    await withServer([{ reply: { text: 'hi', usage: { promptTokens: 120, completionTokens: 30 } } }], async (server) => {
      const turn = await clientFor(server, { model: 'qwen2.5-coder:7b' }).streamChat(ask());
      assert.equal(turn.usage.promptTokens, 120);
      assert.equal(turn.usage.completionTokens, 30);
      assert.equal(turn.cost, undefined);
    });
  });

  test('no usage from the server: estimated from characters and marked as estimated', async () => {
    const text = 'x'.repeat(400);
    await withServer([{ reply: { text, usage: null } }], async (server) => {
      const messages = [{ role: 'user' as const, content: 'y'.repeat(800) }];
      const turn = await clientFor(server, { model: 'gpt-4o-mini' }).streamChat({ role: 'reasoning', messages });
      assert.equal(turn.usage.estimated, true);
      assert.equal(turn.usage.completionTokens, 100);
      // 800 chars / 4 = 200, plus message and reply overheads.
      assert.ok(turn.usage.promptTokens >= 200 && turn.usage.promptTokens < 220, String(turn.usage.promptTokens));
      assert.ok(turn.cost !== undefined && turn.cost > 0);
    });
  });

  test('a run meter sums requests per model and overall, counting unpriced and estimated ones', async () => {
    const script = [
      { reply: { text: 'a', usage: { promptTokens: 1_000, completionTokens: 100 } } },
      { reply: { text: 'b', usage: { promptTokens: 2_000, completionTokens: 200, cachedTokens: 1_000 } } },
      { reply: { text: 'c', usage: null } },
    ];
    await withServer(script, async (server) => {
      const meter = new UsageMeter();
      const client = clientFor(server, { model: 'gpt-4.1', fastModel: 'local-small' });
      const t1 = await client.streamChat(ask(meter));
      const t2 = await client.streamChat(ask(meter));
      const t3 = await client.complete({ prompt: 'summarize', meter });
      const total = meter.total();
      assert.equal(total.requests, 3);
      assert.equal(total.promptTokens, 3_000 + t3.usage.promptTokens);
      assert.equal(total.completionTokens, 300 + t3.usage.completionTokens);
      assert.equal(total.cachedTokens, 1_000);
      assert.equal(total.unpricedRequests, 1);
      assert.equal(total.estimatedRequests, 1);
      assert.ok(Math.abs(total.cost! - (t1.cost! + t2.cost!)) < 1e-12);
      assert.deepEqual([...meter.byModel().keys()], ['gpt-4.1', 'local-small']);
      assert.equal(meter.byModel().get('local-small')!.cost, undefined);
    });
  });

  test('retried requests are not billed twice: usage is recorded once per finished turn', async () => {
    const script = [{ reply: { text: 'ok', usage: { promptTokens: 10, completionTokens: 5 } }, faults: [{ kind: 'status' as const, status: 503 }] }];
    await withServer(script, async (server) => {
      const meter = new UsageMeter();
      await clientFor(server).streamChat(ask(meter));
      assert.equal(meter.total().requests, 1);
      assert.equal(meter.total().promptTokens, 10);
    });
  });
});
