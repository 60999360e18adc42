import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveModelConfig } from '../../../src/core/llm/config';
import {
  FALLBACK_CONTEXT_WINDOW,
  describeContextWindow,
  resolveContextWindow,
  estimateMessageTokens,
  estimatePromptTokens,
  estimateTokens,
} from '../../../src/core/llm/contextWindows';
import { ModelConfigError } from '../../../src/core/llm/errors';
import { ModelClient } from '../../../src/core/llm';

describe('resolveModelConfig', () => {
  test('defaults: fast model = model on the same endpoint and key, 60 s idle, 4 attempts, 60 s budget', () => {
    const c = resolveModelConfig({ baseUrl: 'http://127.0.0.1:11434/v1/', model: 'qwen2.5-coder', apiKey: ' k ' });
    const { origins, ...fast } = c.endpoints.fast;
    assert.deepEqual(fast, { role: 'fast', baseUrl: 'http://127.0.0.1:11434/v1', label: 'http://127.0.0.1:11434/v1', apiKey: 'k', model: 'qwen2.5-coder' });
    assert.deepEqual(origins, {
      baseUrl: 'patchpilot.llm.baseUrl',
      model: 'patchpilot.llm.model',
      apiKey: 'the configured API key',
      apiKeyHelp: 'configure an API key',
    });
    assert.equal(c.idleTimeoutMs, 60_000);
    assert.equal(c.firstChunkTimeoutMs, 120_000);
    assert.equal(c.retry.maxAttempts, 4);
    assert.equal(c.retry.maxRetryTimeMs, 60_000);
    assert.equal(c.apiKeyHeader, 'authorization');
  });

  test('a fast model on another host does not inherit the main key', () => {
    const c = resolveModelConfig({ baseUrl: 'http://127.0.0.1:1/v1', model: 'a', apiKey: 'k', fastBaseUrl: 'http://127.0.0.1:2/v1', fastModel: 'b' });
    assert.equal(c.endpoints.fast.apiKey, undefined);
    assert.equal(c.endpoints.fast.model, 'b');
  });

  test('every problem reported at once, naming the setting', () => {
    try {
      resolveModelConfig({ baseUrl: 'ftp://x', model: '', idleTimeoutMs: -1, maxAttempts: 2.5, prices: { m: { input: 'x', output: 1 } } });
      assert.fail('expected an error');
    } catch (err) {
      assert.ok(err instanceof ModelConfigError);
      assert.deepEqual(err.problems, [
        'patchpilot.llm.baseUrl "ftp://x" is not an http(s) URL',
        'patchpilot.llm.model is required',
        'idleTimeoutMs must be a positive number, got -1',
        'maxAttempts must be a positive integer, got 2.5',
        'prices["m"].input must be a number >= 0 (USD per 1M tokens)',
      ]);
    }
  });

  test('a missing base URL says what to put there', () => {
    assert.throws(() => new ModelClient({ baseUrl: '', model: 'm' }), /patchpilot\.llm\.baseUrl is required \(an OpenAI-compatible base URL/);
  });
});

describe('token estimates and context windows', () => {
  test('chars/4, rounded up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
  });

  test('messages count their tool calls and a per-message overhead', () => {
    const plain = estimateMessageTokens({ role: 'user', content: 'x'.repeat(40) });
    assert.equal(plain, 18); // 10 for the text, 8 for the message's framing
    const withCall = estimateMessageTokens({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c1', name: 'grep', argumentsJson: '{"pattern":"abc"}' }],
    });
    // Framing of the message (8) and of the call (12), the name, the arguments (quotes count twice), the id.
    assert.equal(withCall, 8 + Math.ceil((4 + 21 + 2 + 48) / 4));
    const tools = [{ name: 'grep', description: 'search', parameters: { type: 'object' } }];
    assert.ok(estimatePromptTokens([{ role: 'user', content: 'hi' }], tools) > estimatePromptTokens([{ role: 'user', content: 'hi' }]));
  });

  test('windows: the setting (by the name rules), then the endpoint, then the catalog, then the fallback', () => {
    const endpoint = { contextWindow: 32_768, from: "the endpoint's /v1/models", detail: 'max_model_len' };
    const catalog = { contextWindow: 128_000, maxOutputTokens: 16_384, from: 'the catalog', detail: 'models.dev openai/gpt-4o' };
    assert.deepEqual(resolveContextWindow('llama3.1:8b', { 'llama3.1:8b': 16_384 }, endpoint, catalog), {
      tokens: 16_384,
      known: true,
      source: 'setting',
      from: 'your setting',
      detail: 'patchpilot.llm.contextWindows',
      maxOutputTokens: 16_384,
    });
    assert.equal(resolveContextWindow('openai/qwen3-coder-2025-07-01', { 'qwen3-coder': 65_536 }).tokens, 65_536);
    assert.equal(resolveContextWindow('m', {}, endpoint, catalog).source, 'endpoint');
    assert.equal(resolveContextWindow('m', {}, undefined, catalog).source, 'catalog');
    assert.deepEqual(resolveContextWindow('mystery', {}), { tokens: FALLBACK_CONTEXT_WINDOW, known: false, source: 'fallback' });
    assert.equal(describeContextWindow(resolveContextWindow('m', {}, endpoint)), "context: 32,768 tokens (from the endpoint's /v1/models)");
    assert.equal(describeContextWindow(resolveContextWindow('m', {}, undefined, catalog)), 'context: 128,000 tokens (from the catalog)');
    assert.equal(describeContextWindow(resolveContextWindow('m', { m: 4096 })), 'context: 4,096 tokens (from your setting)');
    assert.equal(
      describeContextWindow(resolveContextWindow('mystery', {})),
      'context: 8,192 tokens (the endpoint did not say; set it in Settings › PatchPilot › Context Windows, patchpilot.llm.contextWindows)',
    );
  });

  test('the client answers per role from the catalog, the configured window winning', () => {
    const client = new ModelClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o', fastModel: 'tiny', contextWindows: { tiny: 4096 } });
    assert.equal(client.contextWindow('reasoning').tokens, 128_000);
    assert.equal(client.contextWindow('reasoning').source, 'catalog');
    assert.equal(client.contextWindow('fast').tokens, 4096);
    assert.equal(client.contextWindow('fast').source, 'setting');
  });

  test('complete() without a prompt or messages rejects (nothing is sent)', async () => {
    const client = new ModelClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    await assert.rejects(client.complete({}), /complete\(\) needs a prompt or messages/);
  });
});
