// Every reply kept, in every provider's shape (issue 30, item 7): through the real `openai` client
// against the scripted server: a whole JSON completion where a stream was asked for, a reply the
// output limit cut inside a tool call, a content filter's stop; and the usage merge rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ModelClient } from '../../../src/core/llm';
import { CUT_CALL_PROBLEM, withCutCallMarked } from '../../../src/core/llm/cutReply';
import { fromAnthropicStopReason } from '../../../src/core/llm/anthropic/anthropicWire';
import { mergeUsage } from '../../../src/core/llm/wire';
import { AnthropicTurnAssembler } from '../../../src/core/llm/anthropic/anthropicAssembler';
import { notesOnReply } from '../../../src/core/orchestrator/modelStep';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ScriptedModelServer, type Script } from '../../support/scriptedModel';

const tools = [{ name: 'read_file', description: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const messages = [{ role: 'user' as const, content: 'go' }];

async function withServer<T>(script: Script, fn: (client: ModelClient, server: ScriptedModelServer) => Promise<T>): Promise<T> {
  const server = await ScriptedModelServer.start(script);
  try {
    return await fn(new ModelClient({ baseUrl: server.baseUrl, model: 'scripted-model' }), server);
  } finally {
    await server.close();
  }
}

describe('provider replies in every shape', () => {
  test('a whole JSON completion to a streaming request is read, not thrown away and retried', async () => {
    const script: Script = {
      ignoreStream: true,
      turns: [
        {
          reply: {
            text: 'Reading it.',
            toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }],
            usage: { promptTokens: 120, completionTokens: 9, cachedTokens: 100 },
          },
        },
      ],
    };
    await withServer(script, async (client, server) => {
      const turn = await client.streamChatWithRecovery({ role: 'reasoning', messages, tools });
      assert.equal(server.chatRequests.length, 1, 'one request: nothing retried');
      assert.equal(server.chatRequests[0]!.body.stream, true);
      assert.equal(turn.text, 'Reading it.');
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.name, JSON.parse(c.argumentsJson)]),
        [['read_file', { path: 'a.ts' }]],
      );
      assert.equal(turn.usage.promptTokens, 120);
      assert.equal(turn.usage.cachedTokens, 100);
      assert.equal(turn.usage.estimated, false);
    });
  });

  test('the output limit cut a tool call: it comes back invalid, saying it was cut, never run', async () => {
    const script: Script = {
      turns: [{ reply: { text: 'Patching.', toolCalls: [{ name: 'read_file', arguments: '{}' }], finishReason: 'length' } }],
    };
    await withServer(script, async (client) => {
      const turn = await client.streamChatWithRecovery({ role: 'reasoning', messages, tools });
      assert.equal(turn.finishReason, 'length');
      assert.equal(turn.toolCalls.length, 0, 'a cut call is never run, even when its JSON parses');
      assert.equal(turn.invalidToolCalls[0]!.problem, CUT_CALL_PROBLEM);
      const events: AgentEvent[] = [];
      notesOnReply(turn, (e) => events.push(e));
      assert.ok(events.some((e) => e.type === 'model/notice' && e.kind === 'output-limit'));
    });
  });

  test('a content filter stop is said plainly and ends the run, never a finished answer', async () => {
    const script: Script = { turns: [{ reply: { text: 'Here is how to', finishReason: 'content_filter' } }] };
    await withServer(script, async (client) => {
      const turn = await client.streamChatWithRecovery({ role: 'reasoning', messages, tools });
      assert.equal(turn.finishReason, 'content_filter');
      const events: AgentEvent[] = [];
      const notes = notesOnReply(turn, (e) => events.push(e));
      assert.match(notes.stoppedByProvider ?? '', /content filter stopped the reply \(finish reason "content_filter"\)/);
      assert.ok(events.some((e) => e.type === 'model/notice' && e.kind === 'content-filter'));
    });
  });

  test('a reply cut by the output limit without a tool call: the model is asked to continue', async () => {
    const script: Script = { turns: [{ reply: { text: 'The first half of a long answer', finishReason: 'length' } }] };
    await withServer(script, async (client) => {
      const turn = await client.streamChatWithRecovery({ role: 'reasoning', messages, tools });
      const notes = notesOnReply(turn, () => undefined);
      assert.equal(notes.finalUnusable, true);
      assert.match(notes.toModel ?? '', /cut by the output token limit \(finish reason "length"\) after 31 characters\. Continue from where it stopped/);
    });
  });

  test('reasoning that ends with </think> but never opened the tag (the chat template opened it) is reasoning', async () => {
    const script: Script = { turns: [{ reply: { text: 'The user wants the answer. Check twice.</think>The answer is 42.', textChunkSize: 5 } }] };
    await withServer(script, async (client) => {
      const turn = await client.streamChatWithRecovery({ role: 'reasoning', messages, tools });
      assert.equal(turn.reasoning, 'The user wants the answer. Check twice.');
      assert.equal(turn.text, 'The answer is 42.');
    });
  });

  test('usage: a later 0 never overwrites a real count', () => {
    const real = { promptTokens: 5_000, completionTokens: 10, cachedTokens: 4_000, estimated: false };
    assert.deepEqual(mergeUsage(real, { promptTokens: 0, completionTokens: 250, estimated: false }), { ...real, completionTokens: 250 });
    const a = new AnthropicTurnAssembler(() => undefined);
    a.push({ type: 'message_start', message: { usage: { input_tokens: 900, cache_read_input_tokens: 800, output_tokens: 1 } } } as never);
    a.push({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 0, output_tokens: 42 } } as never);
    assert.equal(a.usage!.completionTokens, 42);
    assert.equal(a.usage!.cachedTokens, 800);
    assert.ok(a.usage!.promptTokens >= 1_700, String(a.usage!.promptTokens));
  });

  test('Anthropic max_tokens inside a tool_use block: the call is reported cut, and a refusal is a content-filter stop', () => {
    const a = new AnthropicTurnAssembler(() => undefined);
    a.push({ type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } } as never);
    a.push({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} } } as never);
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": "src/very' } } as never);
    a.push({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 4096 } } as never);
    assert.equal(a.lastStartedCallId, 'toolu_1');
    const reason = fromAnthropicStopReason(a.stopReason);
    assert.equal(reason, 'length');
    const calls = withCutCallMarked(reason, a.finishToolCalls(), a.lastStartedCallId);
    assert.deepEqual(calls.valid, []);
    assert.equal(calls.invalid[0]!.problem, CUT_CALL_PROBLEM);
    assert.equal(fromAnthropicStopReason('refusal'), 'content_filter');
  });
});
