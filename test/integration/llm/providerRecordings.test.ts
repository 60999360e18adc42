// Every reply kept, in every provider's shape (issue 30, item 7): recordings from other projects'
// public test suites (test/fixtures/providers, README there says where each comes from) replayed
// verbatim from a loopback server through the real `openai` and `@anthropic-ai/sdk` clients. Checks
// what PatchPilot makes of each: the text (against the recording's own text, read here on its
// own), the tool calls with their whole arguments, reasoning, the finish reason said plainly, and
// usage (input, output, cache reads and writes, reasoning).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ModelApiError, ModelClient, type ModelStreamEvent, type ModelTurn } from '../../../src/core/llm';
import { AnthropicChatModel } from '../../../src/core/llm/anthropic/anthropicChatModel';
import { PROVIDER_FIXTURES, startReplayServer, type ReplayServer } from '../../support/streamReplay';
import { assertEveryFixtureExpected, loadModelSdks } from './helpers';

loadModelSdks();

interface Expected {
  finish?: ModelTurn['finishReason'];
  calls?: [string, unknown][];
  /** prompt, completion, cache reads, cache writes, reasoning */
  usage?: [number, number, number, number, number];
  estimated?: true;
  reasoningChars?: number;
  textChars?: number;
  /** What the user is told (notice kinds). */
  notices?: string[];
  error?: { kind: string; message: RegExp };
}

// prettier-ignore
const EXPECTED: Record<string, Expected> = {
  'alibaba/alibaba-cache-usage.json': { finish: 'stop', calls: [], usage: [100, 50, 80, 20, 10], textChars: 5 },
  'alibaba/alibaba-reasoning.json': { finish: 'stop', calls: [], usage: [24, 1668, 0, 0, 1353], reasoningChars: 4213, textChars: 952 },
  'alibaba/alibaba-text.chunks.txt': { finish: 'stop', calls: [], usage: [18, 779, 0, 0, 0], textChars: 3771 },
  'alibaba/alibaba-text.json': { finish: 'stop', calls: [], usage: [18, 1064, 0, 0, 0], textChars: 4892 },
  'alibaba/alibaba-tool-call.chunks.txt': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [295, 22, 0, 0, 0], textChars: 0 },
  'alibaba/alibaba-tool-call.json': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [295, 22, 0, 0, 0], textChars: 0 },
  'anthropic/anthropic-clear-thinking.1.chunks.txt': { finish: 'stop', calls: [], usage: [69, 53, 0, 0, 0], reasoningChars: 75, textChars: 13 },
  'anthropic/anthropic-clear-thinking.1.json': { finish: 'stop', calls: [], usage: [69, 33, 0, 0, 0], reasoningChars: 22, textChars: 13 },
  'anthropic/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt': { finish: 'stop', calls: [], usage: [9632, 198, 6289, 3337, 0], textChars: 166 },
  'anthropic/anthropic-json-tool.1.chunks.txt': { finish: 'tool_calls', calls: [['json', { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] }]], usage: [849, 47, 0, 0, 0], textChars: 0 },
  'anthropic/anthropic-json-tool.1.json': {
    finish: 'tool_calls',
    calls: [['json', { elements: [{ location: 'San Francisco', temperature: -5, condition: 'snowy' }, { location: 'London', temperature: 0, condition: 'snowy' }, { location: 'Paris', temperature: 23, condition: 'cloudy' }, { location: 'Berlin', temperature: -9, condition: 'snowy' }] }]],
    usage: [1151, 87, 0, 0, 0],
    textChars: 0,
  },
  'anthropic/anthropic-message-delta-input-tokens.chunks.txt': { finish: 'stop', calls: [], usage: [61, 2, 0, 0, 0], textChars: 4 },
  'anthropic/anthropic-refusal-no-details.json': { finish: 'content_filter', calls: [], usage: [18, 5, 0, 0, 0], textChars: 0 },
  'anthropic/anthropic-refusal.chunks.txt': { finish: 'content_filter', calls: [], usage: [18, 5, 0, 0, 0], textChars: 0 },
  'anthropic/anthropic-refusal.json': { finish: 'content_filter', calls: [], usage: [18, 5, 0, 0, 0], textChars: 0 },
  'anthropic/anthropic-text.chunks.txt': { finish: 'stop', calls: [], usage: [12, 30, 0, 0, 0], textChars: 108 },
  'anthropic/anthropic-text.json': { finish: 'stop', calls: [], usage: [12, 29, 0, 0, 0], textChars: 105 },
  'anthropic/anthropic-tool-no-args.chunks.txt': { finish: 'tool_calls', calls: [['updateIssueList', {}]], usage: [565, 48, 0, 0, 0], textChars: 35 },
  'anthropic/anthropic-tool-no-args.json': { finish: 'tool_calls', calls: [['updateIssueList', {}]], usage: [602, 93, 0, 0, 0], textChars: 255 },
  'anthropic/duplicate-message-start.chunks.txt': { finish: 'stop', calls: [], usage: [17, 227, 0, 0, 0], textChars: 13 },
  // Two replies spliced into one stream: never a mix of both (a broken stream, restarted once, then given up).
  'anthropic/spliced-message-start.chunks.txt': { error: { kind: 'interrupted', message: /second reply \(msg_second\) inside the first \(msg_first\)/ } },
  'azure/azure-deepseek-reasoning.1.json': { finish: 'stop', calls: [], usage: [19, 1969, 0, 0, 0], reasoningChars: 3389, textChars: 4105 },
  'deepseek/deepseek-json.json': { finish: 'stop', calls: [], usage: [495, 144, 320, 0, 118], reasoningChars: 558, textChars: 78 },
  'deepseek/deepseek-reasoning.chunks.txt': { finish: 'stop', calls: [], usage: [18, 219, 0, 0, 205], reasoningChars: 606, textChars: 42 },
  'deepseek/deepseek-reasoning.json': { finish: 'stop', calls: [], usage: [18, 345, 0, 0, 315], reasoningChars: 935, textChars: 107 },
  'deepseek/deepseek-text.json': { finish: 'length', calls: [], usage: [13, 300, 0, 0, 0], textChars: 1375 },
  'deepseek/deepseek-tool-call.chunks.txt': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [339, 83, 320, 0, 39], reasoningChars: 191, textChars: 0 },
  'deepseek/deepseek-tool-call.json': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [339, 92, 320, 0, 48], reasoningChars: 242, textChars: 0 },
  'groq/groq-reasoning.json': { finish: 'stop', calls: [], usage: [17, 649, 0, 0, 570], reasoningChars: 1724, textChars: 206 },
  'groq/groq-text.json': { finish: 'stop', calls: [], usage: [45, 607, 0, 0, 0], textChars: 2953 },
  'groq/groq-tool-call.chunks.txt': { finish: 'tool_calls', calls: [['weather', {}]], usage: [210, 15, 0, 0, 0], textChars: 0 },
  'groq/groq-tool-call.json': { finish: 'tool_calls', calls: [['weather', {}]], usage: [218, 15, 0, 0, 0], textChars: 0 },
  'mistral/mistral-incremental-tool-call.chunks.txt': { finish: 'tool_calls', calls: [['webSearchTool', { query: 'current Berlin weather' }]], usage: [171, 14, 128, 0, 0], textChars: 0 },
  'mistral/mistral-reasoning.chunks.txt': { finish: 'stop', calls: [], usage: [10, 46, 0, 0, 0], reasoningChars: 60, textChars: 9 },
  'mistral/mistral-reasoning.json': { finish: 'stop', calls: [], usage: [10, 46, 0, 0, 0], reasoningChars: 60, textChars: 9 },
  'mistral/mistral-text.chunks.txt': { finish: 'stop', calls: [], usage: [13, 8, 0, 0, 0], textChars: 38 },
  'mistral/mistral-text.json': { finish: 'stop', calls: [], usage: [13, 434, 0, 0, 0], textChars: 1926 },
  'mistral/mistral-tool-call.chunks.txt': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [124, 22, 0, 0, 0], textChars: 0 },
  'mistral/mistral-tool-call.json': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [124, 22, 0, 0, 0], textChars: 0 },
  'moonshotai/moonshotai-reasoning.json': { finish: 'stop', calls: [], usage: [20, 30, 10, 0, 22], reasoningChars: 35, textChars: 16 },
  'moonshotai/moonshotai-stream.chunks.txt': { finish: 'stop', calls: [], usage: [9, 12, 0, 0, 7], reasoningChars: 16, textChars: 6 },
  'moonshotai/moonshotai-text.json': { finish: 'stop', calls: [], usage: [9, 5, 0, 0, 0], textChars: 13 },
  'moonshotai/moonshotai-tool-call.json': { finish: 'tool_calls', calls: [['get_weather', { city: 'Paris' }]], usage: [30, 12, 0, 0, 0], textChars: 0 },
  'openai/azure-model-router.1.chunks.txt': { finish: 'stop', calls: [], usage: [15, 78, 0, 0, 64], textChars: 19 },
  'openai/openai-text.json': { finish: 'stop', calls: [], usage: [16, 363, 0, 0, 0], textChars: 1842 },
  // An error object with HTTP 200: the provider's own words, not "closed the stream without a reply".
  'openai/reasoning-model-legacy-parameter-error.json': { error: { kind: 'server', message: /reported an error in the stream: Unsupported parameter: 'max_tokens'/ } },
  'openai-compatible/anthropic-fallback-tool-call.sse': { finish: 'tool_calls', calls: [['read_file', { path: 'a.txt' }]], estimated: true, textChars: 11 },
  // xAI counts reasoning beside completion_tokens (its total_tokens says so): the output count includes it.
  'openai-compatible/xai-text.chunks.txt': { finish: 'stop', calls: [], usage: [12, 342, 11, 0, 340], reasoningChars: 1455, textChars: 4 },
  'openai-compatible/xai-text.json': { finish: 'stop', calls: [], usage: [12, 322, 2, 0, 320], reasoningChars: 1367, textChars: 4 },
  'openai-compatible/xai-tool-call.chunks.txt': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [307, 253, 306, 0, 227], reasoningChars: 1069, textChars: 0 },
  'openai-compatible/xai-tool-call.json': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [307, 281, 244, 0, 255], reasoningChars: 1194, textChars: 0 },
  'perplexity/perplexity-citations.chunks.txt': { finish: 'stop', calls: [], usage: [10, 336, 0, 0, 0], textChars: 34 },
  'perplexity/perplexity-citations.json': { finish: 'stop', calls: [], usage: [10, 251, 0, 0, 0], textChars: 952 },
  'perplexity/perplexity-text.chunks.txt': { finish: 'stop', calls: [], usage: [11, 434, 0, 0, 0], textChars: 22 },
  'perplexity/perplexity-text.json': { finish: 'stop', calls: [], usage: [11, 392, 0, 0, 0], textChars: 1970 },
  'xai/xai-text.chunks.txt': { finish: 'stop', calls: [], usage: [12, 291, 11, 0, 290], reasoningChars: 20, textChars: 5 },
  'xai/xai-text.json': { finish: 'stop', calls: [], usage: [12, 229, 2, 0, 228], reasoningChars: 189, textChars: 5 },
  'xai/xai-tool-call.chunks.txt': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [291, 222, 290, 0, 196], reasoningChars: 18, textChars: 0 },
  'xai/xai-tool-call.json': { finish: 'tool_calls', calls: [['weather', { location: 'San Francisco' }]], usage: [291, 215, 244, 0, 189], reasoningChars: 357, textChars: 0 },
  // Hand-written shapes (README): the classes no recording above shows.
  'shapes/tool-calls-same-index.sse': { finish: 'tool_calls', calls: [['read_file', { path: 'a.ts' }], ['grep', { pattern: 'TODO' }]], estimated: true },
  'shapes/tool-calls-no-index-object-args.sse': { finish: 'tool_calls', calls: [['read_file', { path: 'b.ts' }], ['grep', { pattern: 'x' }]], estimated: true },
  'shapes/usage-ends-reply.sse': { finish: 'stop', calls: [], usage: [20, 2, 0, 0, 0], textChars: 5 },
  'shapes/finish-eos.sse': { finish: 'stop', calls: [], textChars: 14 },
  'shapes/finish-end_turn.sse': { finish: 'stop', calls: [], textChars: 14 },
  'shapes/finish-model_length.sse': { finish: 'length', calls: [], textChars: 14 },
  'shapes/finish-SAFETY.sse': { finish: 'content_filter', calls: [], textChars: 14 },
  'shapes/finish-insufficient_system_resource.sse': { error: { kind: 'interrupted', message: /the provider stopped the reply from .*: insufficient system resource/ } },
  'shapes/finish-mystery_reason.sse': { finish: 'other', calls: [], textChars: 14, notices: ['stop-reason'] },
  'shapes/gemini-tool-call-thought-signature.sse': { finish: 'stop', calls: [['read', { offset: 1, limit: 100, path: '/app/skills/agent-runtime/stage-design/SKILL.md' }]], usage: [1200, 30, 0, 0, 0] },
  'shapes/anthropic-pause-turn.sse': { finish: 'other', calls: [], usage: [30, 3, 0, 0, 0], textChars: 13, notices: ['stop-reason'] },
};

const TOOLS = [{ name: 'weather', description: 'the weather', parameters: { type: 'object', properties: {} } }];

function fixtures(): string[] {
  return readdirSync(PROVIDER_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(path.join(PROVIDER_FIXTURES, d.name)).map((f) => `${d.name}/${f}`));
}

const speaksMessagesApi = (fixture: string) => fixture.startsWith('anthropic/') || fixture.startsWith('shapes/anthropic-');

/**
 * The text a chat-completions recording holds, read here on its own: `content` strings of every
 * streamed delta (or the whole message). Undefined when the content comes in typed parts.
 */
function recordedText(fixture: string): string | undefined {
  const raw = readFileSync(path.join(PROVIDER_FIXTURES, fixture), 'utf8');
  const bodies = fixture.endsWith('.json')
    ? [JSON.parse(raw)]
    : raw
        .split('\n')
        .map((l) => l.replace(/^data: /, '').trim())
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
  let text = '';
  for (const b of bodies) {
    const part = b.choices?.[0]?.delta?.content ?? b.choices?.[0]?.message?.content;
    if (part === undefined || part === null) continue;
    if (typeof part !== 'string') return undefined;
    text += part;
  }
  return text;
}

describe('provider recordings replayed through the real clients', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startReplayServer(PROVIDER_FIXTURES);
  });
  after(() => server.close());

  test('every recording has an expectation, and every expectation a recording', () => {
    const files = fixtures().filter((f) => !f.endsWith('README.md'));
    assertEveryFixtureExpected(files, EXPECTED);
  });

  for (const [fixture, want] of Object.entries(EXPECTED)) {
    test(fixture, async () => {
      const events: ModelStreamEvent[] = [];
      const config = { model: 'm', apiKey: 'k', maxAttempts: 1, idleTimeoutMs: 5_000, firstChunkTimeoutMs: 5_000 };
      const client = speaksMessagesApi(fixture)
        ? new AnthropicChatModel({ ...config, baseUrl: server.anthropicUrlFor(fixture) }, { random: () => 0 })
        : new ModelClient({ ...config, baseUrl: server.urlFor(fixture) }, { random: () => 0 });
      let turn: ModelTurn | undefined;
      let error: unknown;
      try {
        turn = await client.streamChatWithRecovery({
          role: 'reasoning',
          messages: [{ role: 'user', content: 'go' }],
          tools: TOOLS,
          onEvent: (e) => events.push(e),
        });
      } catch (err) {
        error = err;
      }
      if (want.error) {
        assert.ok(error instanceof ModelApiError, `expected an error, got ${turn ? JSON.stringify(turn.text) : String(error)}`);
        assert.equal(error.kind, want.error.kind, error.message);
        assert.match(error.message, want.error.message);
        return;
      }
      assert.equal(error, undefined, String(error));
      assert.ok(turn);
      assert.equal(turn.finishReason, want.finish);
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.name, JSON.parse(c.argumentsJson)]),
        want.calls,
      );
      assert.deepEqual(turn.invalidToolCalls, []);
      if (want.usage) {
        const u = turn.usage;
        assert.deepEqual([u.promptTokens, u.completionTokens, u.cachedTokens ?? 0, u.cacheWriteTokens ?? 0, u.reasoningTokens ?? 0], want.usage);
      }
      assert.equal(turn.usage.estimated, want.estimated ?? false);
      if (want.textChars !== undefined) assert.equal(turn.text.length, want.textChars);
      assert.equal((turn.reasoning ?? '').length, want.reasoningChars ?? 0);
      if (!speaksMessagesApi(fixture) && !fixture.endsWith('.sse')) {
        const text = recordedText(fixture);
        if (text !== undefined && !want.calls?.length) assert.equal(turn.text, text.replace(/^[\s\S]*<\/think>\s*/, ''));
      }
      assert.deepEqual(
        events.filter((e) => e.type === 'notice').map((e) => (e as { kind: string }).kind),
        want.notices ?? [],
      );
    });
  }

  test("a tool call's own provider fields (Gemini's thought signature) go back with it on the next request", async () => {
    const fixture = 'shapes/gemini-tool-call-thought-signature.sse';
    const client = new ModelClient({ baseUrl: server.urlFor(fixture), model: 'm', apiKey: 'k', maxAttempts: 1 }, { random: () => 0 });
    const ask = { role: 'reasoning' as const, tools: TOOLS };
    const turn = await client.streamChatWithRecovery({ ...ask, messages: [{ role: 'user', content: 'go' }] });
    assert.deepEqual(turn.toolCalls[0]!.providerFields, { extra_content: { google: { thought_signature: '…' } } });
    await client.streamChatWithRecovery({
      ...ask,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, toolCalls: turn.toolCalls },
        { role: 'tool', toolCallId: turn.toolCalls[0]!.id, content: 'the file' },
      ],
    });
    const sent = server.requests.at(-1)!.body.messages[1].tool_calls[0];
    assert.deepEqual(sent, {
      extra_content: { google: { thought_signature: '…' } },
      id: 'call_297140',
      type: 'function',
      function: { name: 'read', arguments: turn.toolCalls[0]!.argumentsJson },
    });
  });
});
