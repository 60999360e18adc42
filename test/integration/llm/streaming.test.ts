import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clientFor, collectEvents, userAsks, withServer, rejectsWith } from './helpers';
import type { ModelToolSpec } from '../../../src/core/llm';

const tools: ModelToolSpec[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'grep', description: 'Search', parameters: { type: 'object', properties: { pattern: { type: 'string' } } } },
];

describe('model client streaming through the real openai SDK and the scripted server', () => {
  test('streams text as deltas and returns the whole reply', async () => {
    await withServer([{ reply: { text: 'The failing test expects ISO dates; let me look.', textChunkSize: 5 } }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('fix it'), onEvent });
      assert.equal(turn.text, 'The failing test expects ISO dates; let me look.');
      assert.equal(turn.finishReason, 'stop');
      assert.deepEqual(turn.toolCalls, []);
      const deltas = events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text);
      assert.ok(deltas.length >= 5, `expected several deltas, got ${deltas.length}`);
      assert.equal(deltas.join(''), turn.text);
      assert.equal(turn.attempts, 1);
    });
  });

  test('assembles two parallel tool calls whose arguments arrive interleaved in several chunks', async () => {
    const reply = {
      text: 'Reading both.',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'src/date.ts' } },
        { name: 'grep', arguments: { pattern: 'toISOString\\(' } },
      ],
      argumentChunks: 4,
    };
    await withServer([{ reply, expect: { toolsInclude: ['read_file', 'grep'] } }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('fix'), tools, onEvent });
      assert.equal(turn.finishReason, 'tool_calls');
      assert.deepEqual(
        turn.toolCalls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.argumentsJson) })),
        [
          { id: 'call_0_0', name: 'read_file', args: { path: 'src/date.ts' } },
          { id: 'call_0_1', name: 'grep', args: { pattern: 'toISOString\\(' } },
        ],
      );
      const started = events.filter((e) => e.type === 'tool-call-started');
      assert.deepEqual(
        started.map((e) => (e as { name: string }).name),
        ['read_file', 'grep'],
      );
      const deltas = events.filter((e) => e.type === 'tool-call-delta') as { index: number; argumentsDelta: string }[];
      // Interleaved on the wire: the deltas of call 0 and call 1 alternate.
      assert.ok(deltas.length >= 6);
      assert.notEqual(deltas[0]!.index, deltas[1]!.index);
      assert.equal(
        deltas
          .filter((d) => d.index === 1)
          .map((d) => d.argumentsDelta)
          .join(''),
        turn.toolCalls[1]!.argumentsJson,
      );
      assert.deepEqual(server.mismatches, []);
    });
  });

  test('sends messages, tool results and tools in the chat completions format', async () => {
    const script = [
      {
        reply: { text: 'done' },
        expect: { lastMessageRole: 'tool' as const, lastMessageContains: 'export function formatDate' },
      },
    ];
    await withServer(script, async (server) => {
      await clientFor(server).streamChat({
        role: 'reasoning',
        tools,
        temperature: 0.2,
        maxOutputTokens: 500,
        messages: [
          { role: 'system', content: 'You are careful.' },
          { role: 'user', content: 'fix the date test' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_a', name: 'read_file', argumentsJson: '{"path":"src/date.ts"}' }] },
          { role: 'tool', toolCallId: 'call_a', content: 'export function formatDate() {}' },
        ],
      });
      assert.deepEqual(server.mismatches, []);
      const body = server.chatRequests[0]!.body;
      assert.equal(body.stream, true);
      assert.deepEqual(body.stream_options, { include_usage: true });
      assert.equal(body.temperature, 0.2);
      assert.equal(body.max_tokens, 500);
      assert.deepEqual(body.messages[2].tool_calls, [{ id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/date.ts"}' } }]);
      assert.deepEqual(body.messages[3], { role: 'tool', tool_call_id: 'call_a', content: 'export function formatDate() {}' });
      assert.equal(body.tools[1].function.name, 'grep');
    });
  });

  test('a tool call with broken JSON arguments is reported as invalid, never returned for execution', async () => {
    const reply = {
      toolCalls: [
        { name: 'read_file', arguments: '{"path": "a.ts"' },
        { name: 'grep', arguments: '' },
        { name: 'read_file', arguments: '[1,2]' },
      ],
    };
    await withServer([{ reply }], async (server) => {
      const turn = await clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('x'), tools });
      // "" means "no arguments" for tools without parameters.
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.name, c.argumentsJson]),
        [['grep', '{}']],
      );
      assert.deepEqual(
        turn.invalidToolCalls.map((c) => c.name),
        ['read_file', 'read_file'],
      );
      assert.match(turn.invalidToolCalls[0]!.problem, /not complete JSON/);
      assert.match(turn.invalidToolCalls[1]!.problem, /JSON object/);
    });
  });

  test('reasoning streamed as reasoning_content is kept apart from the text', async () => {
    await withServer([{ reply: { reasoning: 'The test wants UTC.', text: 'Use UTC.' } }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('x'), onEvent });
      assert.equal(turn.reasoning, 'The test wants UTC.');
      assert.equal(turn.text, 'Use UTC.');
      assert.ok(events.some((e) => e.type === 'reasoning-delta'));
    });
  });

  test('the fast role uses fastModel, and complete() returns plain text', async () => {
    await withServer([{ reply: { text: 'Summary: one test fails.' }, expect: { model: 'small-model' } }], async (server) => {
      const client = clientFor(server, { model: 'big-model', fastModel: 'small-model' });
      const turn = await client.complete({ system: 'Summarize.', prompt: 'long log ...' });
      assert.deepEqual(server.mismatches, []);
      assert.equal(turn.text, 'Summary: one test fails.');
      assert.equal(turn.role, 'fast');
      assert.equal(turn.model, 'small-model');
      const body = server.chatRequests[0]!.body;
      assert.deepEqual(
        body.messages.map((m: { role: string }) => m.role),
        ['system', 'user'],
      );
      assert.equal(body.tools, undefined);
    });
  });

  test('the fast model can live on its own base URL', async () => {
    await withServer([{ reply: { text: 'big' } }], async (big) => {
      await withServer([{ reply: { text: 'small' } }], async (small) => {
        const client = clientFor(big, { fastBaseUrl: small.baseUrl, fastModel: 'tiny', apiKey: 'sk-main' });
        assert.equal((await client.complete({ prompt: 'q' })).text, 'small');
        assert.equal((await client.streamChat({ role: 'reasoning', messages: userAsks('q') })).text, 'big');
        // The main key is not sent to a different host unless configured for it.
        assert.equal(small.chatRequests[0]!.headers['authorization'], undefined);
        assert.equal(big.chatRequests[0]!.headers['authorization'], 'Bearer sk-main');
      });
    });
  });
});

describe('endpoints and authentication', () => {
  test('without a key no Authorization header is sent (local servers)', async () => {
    await withServer([{ reply: { text: 'ok' } }], async (server) => {
      await clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('x') });
      assert.equal(server.chatRequests[0]!.headers['authorization'], undefined);
    });
  });

  test('with a key: Bearer auth plus the configured extra headers', async () => {
    await withServer([{ reply: { text: 'ok' } }], async (server) => {
      const client = clientFor(server, { apiKey: 'sk-test', headers: { 'X-Title': 'PatchPilot' } });
      await client.streamChat({ role: 'reasoning', messages: userAsks('x') });
      const headers = server.chatRequests[0]!.headers;
      assert.equal(headers['authorization'], 'Bearer sk-test');
      assert.equal(headers['x-title'], 'PatchPilot');
    });
  });

  test('Azure style: api-key header and api-version query, no Bearer', async () => {
    await withServer([{ reply: { text: 'ok' } }], async (server) => {
      const deployment = server.baseUrl.replace(/\/v1$/, '/openai/deployments/my-gpt');
      const client = clientFor({ baseUrl: deployment }, { apiKey: 'azure-key', apiKeyHeader: 'api-key', apiVersion: '2024-10-21' });
      await client.streamChat({ role: 'reasoning', messages: userAsks('x') });
      const req = server.chatRequests[0]!;
      assert.equal(req.path, '/openai/deployments/my-gpt/chat/completions');
      assert.equal(req.query['api-version'], '2024-10-21');
      assert.equal(req.headers['api-key'], 'azure-key');
      assert.equal(req.headers['authorization'], undefined);
    });
  });

  test('a server that rejects stream_options gets one resend without it, and never again', async () => {
    const script = { rejectStreamOptions: true, turns: [{ reply: { text: 'one' } }, { reply: { text: 'two' } }] };
    await withServer(script, async (server) => {
      const client = clientFor(server);
      const first = await client.streamChat({ role: 'reasoning', messages: userAsks('x') });
      const second = await client.streamChat({ role: 'reasoning', messages: userAsks('y') });
      assert.equal(first.text, 'one');
      assert.equal(second.text, 'two');
      assert.deepEqual(
        server.chatRequests.map((r) => r.outcome),
        ['stream-options-rejected', 'reply', 'reply'],
      );
      // Without stream_options the server sends no usage: the figures are estimates.
      assert.equal(first.usage.estimated, true);
      assert.equal(first.attempts, 1);
    });
  });

  test('a 400 for an unknown model names the base URL and the setting to check', async () => {
    const script = [{ reply: { text: '' }, faults: [{ kind: 'status' as const, status: 404, body: { error: { message: 'model "nope" not found' } } }] }];
    await withServer(script, async (server) => {
      const err = await rejectsWith(clientFor(server, { model: 'nope' }).streamChat({ role: 'reasoning', messages: userAsks('x') }));
      assert.equal(err.kind, 'bad-request');
      assert.equal(err.status, 404);
      assert.match(err.message, /404 from http:\/\/127\.0\.0\.1:\d+\/v1/);
      assert.match(err.message, /patchpilot\.llm\.baseUrl/);
      assert.match(err.message, /model "nope" not found/);
    });
  });
});
