// The Anthropic client through the real @anthropic-ai/sdk against a loopback server replaying the
// Messages API's documented stream shapes: text, tool calls, thinking with its signature carried
// back across a tool loop, cache breakpoints, usage with cache reads and writes, and the errors.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AnthropicChatModel, type AnthropicModelConfig } from '../../../src/core/llm/anthropic/anthropicChatModel';
import { ModelApiError, type ModelMessage, type ModelStreamEvent, type ModelToolSpec } from '../../../src/core/llm';
import { AnthropicServer, apiError, recording, reply, type AnthropicAnswer } from '../../support/anthropicServer';
import { collectEvents, rejectsWith } from './helpers';

async function withAnthropic<T>(answers: AnthropicAnswer[], fn: (server: AnthropicServer) => Promise<T>): Promise<T> {
  const server = await AnthropicServer.start(answers);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

const modelOn = (server: AnthropicServer, config: Partial<AnthropicModelConfig> = {}) =>
  new AnthropicChatModel(
    { baseUrl: server.baseUrl, apiKey: 'sk-ant-test', model: 'claude-sonnet-4-20250514', idleTimeoutMs: 5_000, firstChunkTimeoutMs: 5_000, ...config },
    { random: () => 0 },
  );

const readFile: ModelToolSpec = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const proposePatch: ModelToolSpec = {
  name: 'propose_patch',
  description: 'Propose a patch',
  parameters: { type: 'object', properties: { patch: { type: 'string' } } },
};
const goal: ModelMessage[] = [
  { role: 'system', content: 'You are PatchPilot.' },
  { role: 'user', content: 'fix add.js' },
];

describe('Anthropic Messages client (real SDK, loopback server)', () => {
  test('the documented text stream: text deltas, end_turn is stop, usage from message_start and message_delta, key as x-api-key only', async () => {
    await withAnthropic([{ sse: recording('basic-text') }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
      assert.equal(turn.text, 'Hello!');
      assert.equal(turn.finishReason, 'stop');
      assert.deepEqual(turn.usage, { promptTokens: 25, completionTokens: 15, estimated: false });
      assert.deepEqual(
        events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text),
        ['Hello', '!'],
      );
      const sent = server.requests[0]!;
      assert.equal(sent.path, '/v1/messages');
      assert.equal(sent.headers['x-api-key'], 'sk-ant-test');
      assert.equal(sent.headers.authorization, undefined);
      // The system prompt is top-level, not a message.
      assert.deepEqual(
        sent.body.messages.map((m: { role: string }) => m.role),
        ['user'],
      );
      assert.equal(sent.body.system[0].text, 'You are PatchPilot.');
      assert.equal(sent.body.stream, true);
      assert.equal(sent.body.thinking, undefined);
    });
  });

  test('the documented tool-use stream: text then a tool call whose input_json_delta pieces make its arguments', async () => {
    await withAnthropic([{ sse: recording('tool-use') }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal, tools: [readFile], onEvent });
      assert.equal(turn.text, 'Okay, let me check the weather for San Francisco, CA:');
      assert.equal(turn.finishReason, 'tool_calls');
      assert.deepEqual(turn.toolCalls, [
        { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', argumentsJson: '{"location": "San Francisco, CA", "unit": "fahrenheit"}' },
      ]);
      assert.deepEqual(turn.usage, { promptTokens: 472, completionTokens: 89, estimated: false });
      const started = events.find((e) => e.type === 'tool-call-started') as Extract<ModelStreamEvent, { type: 'tool-call-started' }>;
      assert.deepEqual(started, { type: 'tool-call-started', index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' });
      const args = events
        .filter((e) => e.type === 'tool-call-delta')
        .map((e) => (e as { argumentsDelta: string }).argumentsDelta)
        .join('');
      assert.equal(args, turn.toolCalls[0]!.argumentsJson);
      // Tools in the Messages API's shape.
      assert.deepEqual(server.requests[0]!.body.tools[0].input_schema, readFile.parameters);
    });
  });

  test('the documented thinking stream: reasoning deltas, the block kept with its signature; usage estimated when none is sent', async () => {
    await withAnthropic([{ sse: recording('thinking') }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server, { thinkingBudget: 2_048 }).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
      assert.equal(turn.text, 'The greatest common divisor of 1071 and 462 is **21**.');
      assert.match(turn.reasoning!, /^I need to find the GCD[\s\S]*GCD\(1071, 462\) = 21$/);
      assert.deepEqual(turn.thinkingBlocks, [
        { type: 'thinking', thinking: turn.reasoning, signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...' },
      ]);
      assert.equal(events.filter((e) => e.type === 'reasoning-delta').length, 2);
      assert.equal(turn.usage.estimated, true);
      const body = server.requests[0]!.body;
      assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 2_048 });
      // The budget comes on top of the room for the answer.
      assert.ok(body.max_tokens > 2_048, `max_tokens ${body.max_tokens}`);
    });
  });

  test('thinking across a tool loop: the second request carries the thinking and redacted blocks, signature byte-identical, before the tool_use', async () => {
    const signature = 'ErUBCkYIBxgCIkB+/=sig+with/odd=chars\\u2028"quoted"' + 'x'.repeat(300);
    const redacted = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP';
    const first = reply({
      redacted,
      thinking: { text: 'The bug must be in add.js; read it first.', signature },
      tools: [{ id: 'toolu_1', name: 'read_file', input: { path: 'add.js' } }],
    });
    const second = reply({ thinking: { text: 'It subtracts.', signature: 'sig-2' }, tools: [{ id: 'toolu_2', name: 'propose_patch', input: { patch: 'x' } }] });
    await withAnthropic([{ sse: first }, { sse: second }], async (server) => {
      const model = modelOn(server, { thinkingBudget: 1_024 });
      const turn1 = await model.streamChatWithRecovery({ role: 'reasoning', messages: goal, tools: [readFile, proposePatch] });
      assert.deepEqual(turn1.thinkingBlocks, [
        { type: 'redacted_thinking', data: redacted },
        { type: 'thinking', thinking: 'The bug must be in add.js; read it first.', signature },
      ]);
      // As the orchestrator's conversation keeps it (Conversation.addAssistant).
      const loop: ModelMessage[] = [
        ...goal,
        { role: 'assistant', content: turn1.text || null, toolCalls: turn1.toolCalls, thinkingBlocks: turn1.thinkingBlocks },
        { role: 'tool', toolCallId: 'toolu_1', content: 'exports.add = (a, b) => a - b;' },
      ];
      await model.streamChatWithRecovery({ role: 'reasoning', messages: loop, tools: [readFile, proposePatch] });
      const sent = server.requests[1]!;
      const assistant = sent.body.messages[1];
      assert.equal(assistant.role, 'assistant');
      assert.deepEqual(
        assistant.content.map((b: { type: string }) => b.type),
        ['redacted_thinking', 'thinking', 'tool_use'],
      );
      assert.equal(assistant.content[1].signature, signature);
      assert.equal(assistant.content[0].data, redacted);
      assert.deepEqual(assistant.content[2], { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'add.js' } });
      // Byte-identical on the wire: the signature's JSON text is in the request body as the stream sent it.
      assert.ok(sent.raw.includes(JSON.stringify(signature)), 'the signature is sent back unchanged');
      assert.deepEqual(sent.body.messages[2].content[0], {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: 'exports.add = (a, b) => a - b;',
        cache_control: { type: 'ephemeral' },
      });
      assert.deepEqual(sent.body.thinking, { type: 'enabled', budget_tokens: 1_024 });
    });
  });

  test('a tool loop whose assistant turn has no thinking (a resumed history) is sent without thinking, which the API would refuse', async () => {
    await withAnthropic([{ sse: reply({ text: 'done' }) }], async (server) => {
      const loop: ModelMessage[] = [
        ...goal,
        { role: 'assistant', content: null, toolCalls: [{ id: 't1', name: 'read_file', argumentsJson: '{"path":"a"}' }] },
        { role: 'tool', toolCallId: 't1', content: 'x' },
      ];
      await modelOn(server, { thinkingBudget: 1_024 }).streamChatWithRecovery({ role: 'reasoning', messages: loop });
      assert.equal(server.requests[0]!.body.thinking, undefined);
    });
  });

  test('consecutive tool results become one user message, results first; cache breakpoints on tools, system, the previous step and the last message (4 at most)', async () => {
    await withAnthropic([{ sse: reply({ text: 'ok' }) }], async (server) => {
      const messages: ModelMessage[] = [
        ...goal,
        {
          role: 'assistant',
          content: 'Reading both.',
          toolCalls: [
            { id: 'a', name: 'read_file', argumentsJson: '{"path":"x"}' },
            { id: 'b', name: 'read_file', argumentsJson: '{"path":"y"}' },
          ],
        },
        { role: 'tool', toolCallId: 'a', content: 'X' },
        { role: 'tool', toolCallId: 'b', content: 'Y' },
        { role: 'user', content: 'also check z' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'read_file', argumentsJson: '{"path":"z"}' }] },
        { role: 'tool', toolCallId: 'c', content: 'Z' },
      ];
      await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages, tools: [readFile, proposePatch] });
      const body = server.requests[0]!.body;
      assert.deepEqual(
        body.messages.map((m: { role: string }) => m.role),
        ['user', 'assistant', 'user', 'assistant', 'user'],
      );
      assert.deepEqual(
        body.messages[2].content.map((b: { type: string }) => b.type),
        ['tool_result', 'tool_result', 'text'],
      );
      const marked: string[] = [];
      body.tools.forEach((t: any, i: number) => t.cache_control && marked.push(`tools[${i}]`));
      body.system.forEach((b: any, i: number) => b.cache_control && marked.push(`system[${i}]`));
      body.messages.forEach((m: any, i: number) => m.content.forEach((b: any, j: number) => b.cache_control && marked.push(`messages[${i}][${j}]`)));
      assert.deepEqual(marked, ['tools[1]', 'system[0]', 'messages[2][2]', 'messages[4][0]']);
      for (const where of [body.tools[1], body.system[0]]) assert.deepEqual(where.cache_control, { type: 'ephemeral' });
    });
  });

  test('a content block this client cannot read is named in the reply, never dropped in silence', async () => {
    const withUnknown = reply({ text: 'Searching.' }).replace(
      'event: message_delta',
      'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}\n\nevent: content_block_stop\ndata: {"type":"content_block_stop","index":1}\n\nevent: message_delta',
    );
    await withAnthropic([{ sse: withUnknown }], async (server) => {
      const turn = await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal });
      assert.equal(turn.text, 'Searching.\n[the reply contained content this client cannot read: server_tool_use]');
    });
  });

  test('a system message after the start becomes user text in place; an empty assistant message is left out and its neighbours merge', async () => {
    await withAnthropic([{ sse: reply({ text: 'ok' }) }], async (server) => {
      const messages: ModelMessage[] = [...goal, { role: 'assistant', content: null }, { role: 'system', content: 'The user changed add.js.' }];
      await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages });
      const body = server.requests[0]!.body;
      assert.deepEqual(
        body.system.map((b: { text: string }) => b.text),
        ['You are PatchPilot.'],
      );
      assert.deepEqual(
        body.messages.map((m: { role: string }) => m.role),
        ['user'],
      );
      assert.deepEqual(
        body.messages[0].content.map((b: { text: string }) => b.text),
        ['fix add.js', '<system>\nThe user changed add.js.\n</system>'],
      );
    });
  });

  test('the same history gives the same request bytes (the prompt cache can hit)', async () => {
    await withAnthropic([{ sse: reply({ text: 'a' }) }, { sse: reply({ text: 'b' }) }], async (server) => {
      const model = modelOn(server);
      const messages: ModelMessage[] = [
        ...goal,
        { role: 'assistant', content: null, toolCalls: [{ id: 'a', name: 'read_file', argumentsJson: '{"path":"x"}' }] },
        { role: 'tool', toolCallId: 'a', content: 'X' },
      ];
      await model.streamChatWithRecovery({ role: 'reasoning', messages, tools: [readFile] });
      await model.streamChatWithRecovery({ role: 'reasoning', messages, tools: [readFile] });
      assert.equal(server.requests[0]!.raw, server.requests[1]!.raw);
    });
  });

  test('usage with cache reads and writes: prompt = input + read + written, priced with the cache prices', async () => {
    const usage = { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 4_000, cache_creation_input_tokens: 1_000 };
    await withAnthropic([{ sse: reply({ text: 'ok', usage }) }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
      assert.deepEqual(turn.usage, { promptTokens: 5_100, completionTokens: 50, cachedTokens: 4_000, cacheWriteTokens: 1_000, estimated: false });
      // claude-sonnet-4: $3 input, $0.30 cache read, $3.75 cache write, $15 output per 1M tokens.
      const expected = (100 * 3 + 4_000 * 0.3 + 1_000 * 3.75 + 50 * 15) / 1_000_000;
      assert.ok(Math.abs(turn.cost! - expected) < 1e-12, `cost ${turn.cost} vs ${expected}`);
      assert.deepEqual(
        events.find((e) => e.type === 'usage'),
        { type: 'usage', usage: turn.usage, cost: turn.cost },
      );
    });
  });

  test('529 overloaded_error is retried after a backoff; the retry succeeds', async () => {
    await withAnthropic([{ status: 529, body: apiError('overloaded_error', 'Overloaded') }, { sse: recording('basic-text') }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
      assert.equal(turn.text, 'Hello!');
      assert.equal(turn.attempts, 2);
      const retrying = events.find((e) => e.type === 'retrying') as Extract<ModelStreamEvent, { type: 'retrying' }>;
      assert.equal(retrying.kind, 'server');
      assert.match(retrying.reason, /529 from http:\/\/127\.0\.0\.1:\d+: server error \(server said: Overloaded\)/);
      assert.equal(server.requests.length, 2);
    });
  });

  test('an overloaded error event inside the stream (before any output) is retried too', async () => {
    await withAnthropic([{ sse: recording('error-overloaded') }, { sse: recording('basic-text') }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
      assert.equal(turn.text, 'Hello!');
      assert.match((events.find((e) => e.type === 'retrying') as { reason: string }).reason, /reported an error in the stream: Overloaded/);
    });
  });

  test('an error event after text began: the partial reply is dropped (restart) and the step runs once more', async () => {
    const broken = reply({ text: 'Half an ans' }).replace(
      /event: message_delta[\s\S]*$/,
      'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n',
    );
    await withAnthropic([{ sse: broken }, { sse: recording('basic-text') }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
      assert.equal(turn.text, 'Hello!');
      const restart = events.find((e) => e.type === 'restart') as Extract<ModelStreamEvent, { type: 'restart' }>;
      assert.equal(restart.discardedText, 'Half an ans');
      assert.match(restart.reason, /broke off: .*Overloaded/);
      assert.equal(server.requests.length, 2);
    });
  });

  test('429 rate_limit_error waits at least the retry-after the server asked for', async () => {
    await withAnthropic(
      [
        {
          status: 429,
          body: apiError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
          headers: { 'retry-after': '1' },
        },
        { sse: recording('basic-text') },
      ],
      async (server) => {
        const { events, onEvent } = collectEvents();
        const started = Date.now();
        await modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
        const retrying = events.find((e) => e.type === 'retrying') as Extract<ModelStreamEvent, { type: 'retrying' }>;
        assert.equal(retrying.kind, 'rate-limit');
        assert.ok(retrying.delayMs >= 1_000);
        assert.ok(Date.now() - started >= 1_000);
      },
    );
  });

  for (const said of [
    'prompt is too long: 215304 tokens > 200000 maximum',
    'input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
  ]) {
    test(`400 "${said.slice(0, 30)}..." is a context overflow, not retried`, async () => {
      await withAnthropic([{ status: 400, body: apiError('invalid_request_error', said) }], async (server) => {
        const err = await rejectsWith(modelOn(server).streamChatWithRecovery({ role: 'reasoning', messages: goal }));
        assert.ok(err instanceof ModelApiError);
        assert.equal(err.kind, 'context-overflow');
        assert.equal(err.retryable, false);
        assert.equal(server.requests.length, 1);
      });
    });
  }

  test('401 names the key, without retrying; a keyless endpoint gets no credentials at all', async () => {
    await withAnthropic([{ status: 401, body: apiError('authentication_error', 'invalid x-api-key') }, { sse: recording('basic-text') }], async (server) => {
      const err = await rejectsWith(
        modelOn(server, { origins: { apiKey: '$ANTHROPIC_API_KEY' } }).streamChatWithRecovery({ role: 'reasoning', messages: goal }),
      );
      assert.equal(err.kind, 'auth');
      assert.match(err.message, /\$ANTHROPIC_API_KEY was refused/);
      await modelOn(server, { apiKey: undefined }).streamChatWithRecovery({ role: 'reasoning', messages: goal });
      const headers = server.requests[1]!.headers;
      assert.equal(headers['x-api-key'], undefined);
      assert.equal(headers.authorization, undefined);
    });
  });

  test('a stream that stalls before any event times out as a retryable timeout', async () => {
    await withAnthropic([{ hang: true }, { sse: recording('basic-text') }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await modelOn(server, { firstChunkTimeoutMs: 1_000 }).streamChatWithRecovery({ role: 'reasoning', messages: goal, onEvent });
      assert.equal(turn.text, 'Hello!');
      assert.equal((events.find((e) => e.type === 'retrying') as { kind: string }).kind, 'timeout');
    });
  });
});
