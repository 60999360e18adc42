// Every reply kept, in Anthropic's shape (issue 30, item 7): recorded Messages API streams
// (test/fixtures/anthropic, the wire's own event names and fields) replayed from a loopback server
// to the real @anthropic-ai/sdk, and through the real Orchestrator where what matters is what the
// run does next: a whole JSON message where a stream was asked for, a refusal stop, the output
// limit cutting a text reply and a tool_use input mid-JSON, usage merged from message_start and
// message_delta with the cache counts kept, and signed thinking blocks sent back within a tool loop.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import { AnthropicChatModel } from '../../../src/core/llm/anthropic/anthropicChatModel';
import { CUT_CALL_PROBLEM } from '../../../src/core/llm/cutReply';
import { ModelApiError, type ModelMessage } from '../../../src/core/llm';
import { Orchestrator, type RunOutcome } from '../../../src/core/orchestrator';
import { createToolRegistry } from '../../../src/core/tools';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { AnthropicServer, reply, type AnthropicAnswer } from '../../support/anthropicServer';
import { tempWorkspace } from '../../unit/tools/helpers';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'anthropic');
const recorded = (name: string): { sse: string } => ({ sse: readFileSync(path.join(FIXTURES, name), 'utf8') });
const goal: ModelMessage[] = [
  { role: 'system', content: 'You are PatchPilot.' },
  { role: 'user', content: 'fix add.js' },
];

async function withServer<T>(answers: AnthropicAnswer[], fn: (server: AnthropicServer) => Promise<T>): Promise<T> {
  const server = await AnthropicServer.start(answers);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

const modelOn = (server: AnthropicServer, thinkingBudget?: number) =>
  new AnthropicChatModel(
    {
      baseUrl: server.baseUrl,
      apiKey: 'sk-ant-test',
      model: 'claude-sonnet-4-5-20250929',
      idleTimeoutMs: 5_000,
      firstChunkTimeoutMs: 5_000,
      ...(thinkingBudget ? { thinkingBudget } : {}),
    },
    { random: () => 0 },
  );

/** One goal through the real Orchestrator and tools, the model being the Anthropic client on `server`. */
async function runGoal(server: AnthropicServer, thinkingBudget?: number): Promise<{ outcome: RunOutcome; events: AgentEvent[] }> {
  const ws = tempWorkspace({ 'add.js': 'exports.add = (a, b) => a - b;\n' });
  try {
    const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
    settings.approval.mode = 'auto-edit';
    settings.limits.maxSteps = 6;
    const events: AgentEvent[] = [];
    const orchestrator = new Orchestrator({
      root: ws.root,
      fs: new NodeWorkspaceFs(ws.root),
      settings,
      model: modelOn(server, thinkingBudget),
      tools: createToolRegistry({}),
      approver: { approvePatch: async () => ({ acceptedHunks: [] }), approveAction: async () => ({ approved: false }) },
      tasks: new NodeTaskRunner(),
      onEvent: (e) => events.push(e),
    });
    const outcome = await orchestrator.run('fix add.js');
    return { outcome, events };
  } finally {
    ws.cleanup();
  }
}

const finish = (summary: string) => ({ sse: reply({ tools: [{ id: 'toolu_fin', name: 'finish', input: { summary } }] }) });
type Block = { type: string; [k: string]: any };
const contentOf = (message: { content: string | Block[] }): Block[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
const notices = (events: AgentEvent[], kind: string) => events.filter((e) => e.type === 'model/notice' && e.kind === kind);

describe('Anthropic replies in every shape (recorded streams, real SDK, loopback server)', () => {
  test('a whole JSON message where a stream was asked for is read once: thinking with its signature, text, tool call, usage', async () => {
    const body = JSON.parse(readFileSync(path.join(FIXTURES, 'json-reply.json'), 'utf8'));
    await withServer([{ status: 200, body }], async (server) => {
      const turn = await modelOn(server, 1_024).streamChatWithRecovery({ role: 'reasoning', messages: goal });
      assert.equal(server.requests.length, 1, 'nothing retried');
      assert.equal(server.requests[0]!.body.stream, true);
      assert.equal(turn.text, 'Reading it.');
      assert.equal(turn.finishReason, 'tool_calls');
      assert.deepEqual(turn.toolCalls, [{ id: 'toolu_01Jr4NbVx7KqW2mLs9TcPdHe', name: 'read_file', argumentsJson: '{"path":"add.js"}' }]);
      assert.deepEqual(turn.thinkingBlocks, [{ type: 'thinking', thinking: body.content[0].thinking, signature: body.content[0].signature }]);
      assert.deepEqual(turn.usage, { promptTokens: 31 + 2_048, completionTokens: 58, cachedTokens: 2_048, estimated: false });
    });
  });

  test('an error object answered as JSON with status 200 is that error: a prompt too long is a context overflow, not retried', async () => {
    const body = { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 215304 tokens > 200000 maximum' } };
    await withServer([{ status: 200, body }], async (server) => {
      const err = await modelOn(server)
        .streamChatWithRecovery({ role: 'reasoning', messages: goal })
        .then(
          () => undefined,
          (e: unknown) => e as ModelApiError,
        );
      assert.ok(err instanceof ModelApiError, String(err));
      assert.equal(err.kind, 'context-overflow');
      assert.equal(server.requests.length, 1);
    });
  });

  test("usage merged from message_start and message_delta: cache writes and reads kept, a proxy's late counts taken", async () => {
    await withServer([recorded('cache-usage.sse'), recorded('proxy-late-usage.sse')], async (server) => {
      const model = modelOn(server);
      const first = await model.streamChatWithRecovery({ role: 'reasoning', messages: goal });
      assert.deepEqual(first.usage, {
        promptTokens: 14 + 1_890 + 14_210,
        completionTokens: 87,
        cachedTokens: 14_210,
        cacheWriteTokens: 1_890,
        estimated: false,
      });
      const late = await model.streamChatWithRecovery({ role: 'reasoning', messages: goal });
      assert.deepEqual(late.usage, { promptTokens: 22 + 9_640, completionTokens: 5, cachedTokens: 9_640, estimated: false });
    });
  });

  test('stop_reason "refusal": the run ends saying the provider refused, with its explanation; the half answer is not the result', async () => {
    await withServer([recorded('refusal.sse')], async (server) => {
      const { outcome, events } = await runGoal(server);
      assert.notEqual(outcome.status, 'finished');
      assert.match(outcome.reason, /refus/);
      assert.match(outcome.reason, /could enable cyber harm/);
      const [notice] = notices(events, 'content-filter');
      assert.ok(notice, 'a content-filter notice');
      assert.match((notice as { message: string }).message, /finish reason "refusal".*refused/);
      assert.equal(server.requests.length, 1, 'a refused reply is not retried as it is');
    });
  });

  test('stop_reason "max_tokens" cutting a text reply: said, and the model is asked to continue where it stopped', async () => {
    await withServer([recorded('max-tokens-text.sse'), finish('three inputs fail')], async (server) => {
      const { outcome, events } = await runGoal(server);
      assert.equal(outcome.status, 'finished', outcome.reason);
      assert.equal(notices(events, 'output-limit').length, 1);
      const second = server.requests[1]!.body;
      const assistant = second.messages.at(-2);
      assert.equal(assistant.role, 'assistant');
      assert.match(contentOf(assistant)[0]!.text, /^The parser fails on three inputs\. .* second, a trailing$/);
      const asked = contentOf(second.messages.at(-1))
        .map((b) => b.text ?? '')
        .join('\n');
      assert.match(asked, /cut by the output token limit \(finish reason "max_tokens"\) after \d+ characters\. Continue from where it stopped/);
    });
  });

  test('stop_reason "max_tokens" inside a tool_use input: the call is never run, its result says it was cut, the model goes on', async () => {
    await withServer([recorded('max-tokens-tool-use.sse'), finish('split the file')], async (server) => {
      const { outcome, events } = await runGoal(server);
      assert.equal(outcome.status, 'finished', outcome.reason);
      assert.ok(!events.some((e) => e.type === 'tool/finished' && (e as { name?: string }).name === 'write_file' && (e as { ok?: boolean }).ok));
      assert.match((notices(events, 'output-limit')[0] as { message: string }).message, /"max_tokens"\) while a tool call was being written/);
      const second = server.requests[1]!.body;
      const calls = contentOf(second.messages.at(-2)).filter((b) => b.type === 'tool_use');
      assert.deepEqual(
        calls.map((b) => [b.id, b.name]),
        [['toolu_01Wq8HcVbN3mKx5TzLr2PdYa', 'write_file']],
      );
      const result = contentOf(second.messages.at(-1)).find((b) => b.type === 'tool_result')!;
      assert.equal(result.tool_use_id, 'toolu_01Wq8HcVbN3mKx5TzLr2PdYa');
      assert.ok(JSON.stringify(result.content).includes(CUT_CALL_PROBLEM.slice(0, 60)), JSON.stringify(result.content));
    });
  });

  test('stop_reason "max_tokens" inside an unsigned thinking block: the model is asked to continue; the block is not sent back (the API refuses it)', async () => {
    await withServer([recorded('max-tokens-in-thinking.sse'), finish('the Buffer caller')], async (server) => {
      const { outcome, events } = await runGoal(server, 1_024);
      assert.equal(outcome.status, 'finished', outcome.reason);
      assert.equal(notices(events, 'output-limit').length, 1);
      const second = server.requests[1]!.body;
      const sent = second.messages.flatMap((m: { content: string | Block[] }) => contentOf(m));
      assert.ok(!sent.some((b: Block) => b.type === 'thinking'), 'no thinking block without its signature');
      assert.match(JSON.stringify(second.messages.at(-1)), /cut by the output token limit \(finish reason \\"max_tokens\\"\)/);
    });
  });

  test('thinking within a tool loop: the signed block goes back first on its assistant message, byte for byte; cached tokens reach the run', async () => {
    await withServer([recorded('thinking-tool-use.sse'), recorded('thinking-finish.sse')], async (server) => {
      const { outcome, events } = await runGoal(server, 2_048);
      assert.equal(outcome.status, 'finished', outcome.reason);
      const [first, second] = server.requests;
      for (const q of [first!, second!]) assert.deepEqual(q.body.thinking, { type: 'enabled', budget_tokens: 2_048 });
      const assistant = second!.body.messages.at(-2);
      assert.equal(assistant.role, 'assistant');
      const blocks = contentOf(assistant);
      assert.deepEqual(
        blocks.map((b) => b.type),
        ['thinking', 'text', 'tool_use'],
      );
      const recordedSse = recorded('thinking-tool-use.sse').sse;
      const signature = /"signature_delta","signature":"([^"]+)"/.exec(recordedSse)![1]!;
      assert.equal(blocks[0]!.signature, signature);
      assert.equal(blocks[0]!.thinking, 'The user says add() is wrong. I should read add.js before proposing anything.');
      assert.ok(second!.raw.includes(`"signature":"${signature}"`), 'the signature goes back unchanged');
      assert.deepEqual(
        contentOf(second!.body.messages.at(-1)).map((b) => b.type),
        ['tool_result'],
      );
      // Item 3: the second reply's cache read is counted for the run.
      assert.equal(outcome.usage.cachedTokens, 1_258);
      const finished = events.find((e) => e.type === 'run/finished') as { usage?: { reasoning: { cachedTokens?: number } } } | undefined;
      assert.equal(finished?.usage?.reasoning.cachedTokens, 1_258);
    });
  });
});
