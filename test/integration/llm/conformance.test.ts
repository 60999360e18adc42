/**
 * Conformance: recorded replies of real providers (test/fixtures/streams, each file names where its
 * shape comes from) replayed from a loopback server through the real `openai` client and ModelClient.
 * Checks what the user and the loop get: text, reasoning, refusal, tool calls, usage, notices, errors.
 * Every fixture in the folder must have an expectation here, so a new recording cannot go unchecked.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { ModelApiError, ModelClient, type ModelStreamEvent, type ModelTurn } from '../../../src/core/llm';
import { STREAM_FIXTURES, startReplayServer, type ReplayServer } from '../../support/streamReplay';
import { assertEveryFixtureExpected, loadModelSdks } from './helpers';

loadModelSdks();

interface Expected {
  text?: string;
  reasoning?: string;
  refusal?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
  usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number; reasoningTokens?: number };
  /** Notice kinds the stream must emit (in order); absent: none. */
  notices?: string[];
  unread?: RegExp;
  error?: { kind: string; message?: RegExp };
}

const TOOLS = [
  { name: 'read_file', description: 'read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'grep', description: 'search', parameters: { type: 'object', properties: { pattern: { type: 'string' } } } },
];

const EXPECTED: Record<string, Expected> = {
  'openai-text.sse': { text: 'The answer is 42.', usage: { promptTokens: 19, completionTokens: 6, cachedTokens: 0 } },
  'openai-parallel-tool-calls.sse': {
    text: '',
    toolCalls: [
      { name: 'read_file', args: { path: 'src/a.ts' } },
      { name: 'grep', args: { pattern: 'TODO' } },
    ],
    usage: { promptTokens: 120, completionTokens: 40 },
  },
  'openai-refusal.sse': { text: '', refusal: "I'm sorry, I can't help with that." },
  'openai-legacy-function-call.sse': { toolCalls: [{ name: 'grep', args: { pattern: 'x' } }] },
  'azure-content-filter.sse': { text: 'Hello from Azure', usage: { promptTokens: 11, completionTokens: 4 } },
  'deepseek-reasoning.sse': {
    text: '9.8 is larger.',
    reasoning: 'The user wants 9.11 vs 9.8. 9.8 is larger.',
    usage: { promptTokens: 13, completionTokens: 60, cachedTokens: 0, reasoningTokens: 52 },
  },
  'deepseek-thinking-tool-call.sse': {
    text: '',
    reasoning: 'I should read the file first.',
    toolCalls: [{ name: 'read_file', args: { path: 'src/a.ts' } }],
    usage: { promptTokens: 374, completionTokens: 61, cachedTokens: 256, reasoningTokens: 17 },
  },
  'openrouter-reasoning.sse': {
    text: 'There are 3.',
    reasoning: "Counting the r's in strawberry: 3.",
    usage: { promptTokens: 14, completionTokens: 80, reasoningTokens: 70 },
  },
  'openrouter-reasoning-details.sse': { text: 'Done.', reasoning: 'Plan: check the tests first.' },
  'openrouter-midstream-error.sse': { error: { kind: 'server', message: /Provider disconnected unexpectedly/ } },
  'groq-gpt-oss-reasoning.sse': {
    text: 'Quiet tests pass green',
    reasoning: 'User asks for a haiku. Keep it 5-7-5.',
    usage: { promptTokens: 80, completionTokens: 45 },
  },
  'mistral-magistral-thinking.sse': {
    text: '391',
    reasoning: '17*23: 17*20=340, 17*3=51, sum 391. Done.',
    usage: { promptTokens: 28, completionTokens: 139, cachedTokens: 0 },
  },
  'mistral-text.sse': { text: 'Bonjour.' },
  'vllm-qwen3-reasoning-content.sse': { text: '\n\n4', reasoning: 'Need to add 2 and 2.' },
  'vllm-qwen3-reasoning.sse': { text: 'Yes.', reasoning: 'Short answer is fine.' },
  'ollama-qwen3-think-tags.sse': { text: 'Hello! How can I help?', reasoning: '\nThe user greets me.\n' },
  'llamacpp-deepseek-r1-unopened-think.sse': { text: 'The answer is 4.', reasoning: 'Okay, 2+2 is 4.\n' },
  'ollama-openai-reasoning.sse': { text: '5', reasoning: 'Simple math.' },
  'lmstudio-reasoning-content.sse': { text: '10 cm', reasoning: 'Check units.' },
  'kimi-k2-thinking-tool-call.sse': { reasoning: 'Look at the test file.', toolCalls: [{ name: 'grep', args: { pattern: 'describe' } }] },
  'glm-reasoning.sse': { text: 'Hallo Welt', reasoning: 'Translate literally.' },
  'xai-grok-3-mini-reasoning.sse': {
    text: '303',
    reasoning: '101 times 3 is 303.',
    usage: { promptTokens: 18, completionTokens: 150, cachedTokens: 6, reasoningTokens: 148 },
  },
  'together-deepseek-r1-think.sse': { text: 'Hi there.', reasoning: '\nShort reply.\n' },
  'fireworks-reasoning-content.sse': { text: 'Ready.', reasoning: 'One word.' },
  'vllm-hermes-text-tool-call.sse': { text: '', toolCalls: [{ name: 'read_file', args: { path: 'src/a.ts' } }], notices: ['text-tool-calls'] },
  'vllm-mistral-text-tool-call.sse': { text: '', toolCalls: [{ name: 'grep', args: { pattern: 'fixme' } }], notices: ['text-tool-calls'] },
  'llamacpp-mistral-args-text-tool-call.sse': { text: '', toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }], notices: ['text-tool-calls'] },
  'llamacpp-llama3-json-text-tool-call.sse': { text: '', toolCalls: [{ name: 'grep', args: { pattern: 'main' } }], notices: ['text-tool-calls'] },
  'vllm-hermes-unknown-tool.sse': { toolCalls: [], notices: ['text-tool-calls'], unread: /not offered: "delete_everything"/ },
  'gateway-placeholder-first-chunk.sse': { text: 'Hello', usage: { promptTokens: 10, completionTokens: 1 } },
  'empty-tool-calls-array.sse': { text: 'Hello', reasoning: 'Think more...', toolCalls: [] },
  'unknown-content-part.sse': { text: 'Here is the chart:', notices: ['unread-content'], unread: /image_url/ },
  'vllm-flat-error-in-stream.sse': { error: { kind: 'context-overflow', message: /maximum context length is 4096/ } },
  'error-openai-context-length.http': { error: { kind: 'context-overflow', message: /maximum context length is 128000/ } },
  'error-vllm-flat-context.http': { error: { kind: 'context-overflow', message: /maximum context length is 8192/ } },
  'error-llamacpp-context.http': { error: { kind: 'context-overflow', message: /exceeds the available context size/ } },
  'error-ollama-model-not-found.http': { error: { kind: 'bad-request', message: /not found, try pulling it first/ } },
  'error-anthropic-compat-prompt-too-long.http': { error: { kind: 'context-overflow', message: /prompt is too long/ } },
  'error-groq-context.http': { error: { kind: 'context-overflow', message: /reduce the length/ } },
  'error-gemini-openai-array.http': { error: { kind: 'context-overflow', message: /input token count \(1200000\) exceeds/ } },
  'error-nginx-502.http': { error: { kind: 'server', message: /502 Bad Gateway/ } },
  'error-plain-text-500.http': { error: { kind: 'server', message: /CUDA out of memory/ } },
  'error-fastapi-detail.http': { error: { kind: 'context-overflow', message: /must be <= 32768/ } },
};

describe('conformance: recorded provider streams through the real openai client', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startReplayServer();
  });
  after(() => server.close());

  test('every fixture has an expectation', () => {
    const files = readdirSync(STREAM_FIXTURES).filter((f) => f.endsWith('.sse') || f.endsWith('.http'));
    assertEveryFixtureExpected(files, EXPECTED);
  });

  for (const [fixture, want] of Object.entries(EXPECTED)) {
    test(fixture, async () => {
      const events: ModelStreamEvent[] = [];
      const client = new ModelClient(
        { baseUrl: server.urlFor(fixture), model: 'm', maxAttempts: 1, idleTimeoutMs: 2_000, firstChunkTimeoutMs: 2_000 },
        { random: () => 0 },
      );
      let turn: ModelTurn | undefined;
      let error: unknown;
      try {
        turn = await client.streamChat({ role: 'reasoning', messages: [{ role: 'user', content: 'go' }], tools: TOOLS, onEvent: (e) => events.push(e) });
      } catch (err) {
        error = err;
      }
      if (want.error) {
        assert.ok(error instanceof ModelApiError, `expected an error, got ${turn ? JSON.stringify(turn.text) : String(error)}`);
        assert.equal(error.kind, want.error.kind, error.message);
        if (want.error.message) assert.match(error.message, want.error.message);
        assert.doesNotMatch(error.message, /no body/);
        return;
      }
      assert.equal(error, undefined, String(error));
      assert.ok(turn);
      if (want.text !== undefined) assert.equal(turn.text, want.text);
      // What streamed as text (after any retraction) is what the turn says.
      const streamed = events.reduce((s, e) => (e.type === 'text-delta' ? s + e.text : e.type === 'text-became-reasoning' ? '' : s), '');
      if (want.text !== undefined && !want.toolCalls?.length) assert.equal(streamed, want.text);
      assert.equal(turn.reasoning ?? '', want.reasoning ?? '');
      const streamedReasoning = events.reduce((s, e) => (e.type === 'reasoning-delta' || e.type === 'text-became-reasoning' ? s + e.text : s), '');
      assert.equal(streamedReasoning, want.reasoning ?? '');
      assert.equal(turn.refusal ?? '', want.refusal ?? '');
      if (want.toolCalls)
        assert.deepEqual(
          turn.toolCalls.map((c) => ({ name: c.name, args: JSON.parse(c.argumentsJson) })),
          want.toolCalls,
        );
      assert.deepEqual(turn.invalidToolCalls, []);
      if (want.usage) assert.deepEqual({ ...turn.usage }, { ...want.usage, estimated: false });
      assert.deepEqual(
        events.filter((e) => e.type === 'notice').map((e) => (e as { kind: string }).kind),
        want.notices ?? [],
      );
      if (want.unread) assert.match((turn.unreadParts ?? []).join('; '), want.unread);
      else assert.equal(turn.unreadParts, undefined);
    });
  }
});
