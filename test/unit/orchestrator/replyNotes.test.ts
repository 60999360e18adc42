// What the loop does with a reply that is not a plain answer or plain tool calls: parts the client
// could not read, a refusal, an empty reply. Never a silent "finished": the user is told and the
// model is asked again. A fake model port returns the turns; the rest of the loop is real.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest, ModelTurn } from '../../../src/core/llm/types';
import type { ChatModel } from '../../../src/core/ports';
import { runScripted } from './harness';

function fakeModel(turns: Partial<ModelTurn>[]): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    modelFor: () => 'fake-model',
    contextWindow: () => ({ tokens: 128_000, known: true, source: 'setting' }) as ReturnType<ChatModel['contextWindow']>,
    async streamChatWithRecovery(req) {
      requests.push({ ...req, messages: [...req.messages] });
      const t = turns[requests.length - 1] ?? { text: 'done' };
      return {
        role: 'reasoning',
        model: 'fake-model',
        text: '',
        toolCalls: [],
        invalidToolCalls: [],
        finishReason: 'stop',
        rawFinishReason: 'stop',
        usage: { promptTokens: 10, completionTokens: 5, estimated: false },
        attempts: 1,
        ...t,
      };
    },
  };
}

const lastMessage = (r: ChatRequest) => r.messages[r.messages.length - 1]!;

describe('replies the loop cannot take as they are', () => {
  test('a part the client could not read: the user saw a notice, the model is told what was lost, the run does not end on the cut answer', async () => {
    const model = fakeModel([{ text: 'The total is', unreadParts: ['a content part of type "image_url"'] }, { text: 'The total is 391.' }]);
    const h = await runScripted([], { deps: { model } });
    assert.equal(h.outcome.status, 'finished');
    assert.equal(h.outcome.summary, 'The total is 391.');
    assert.equal(model.requests.length, 2);
    const told = lastMessage(model.requests[1]!);
    assert.equal(told.role, 'user');
    assert.match(String(told.content), /could not be read.*image_url/);
  });

  test('with tool calls, the note follows the tool results', async () => {
    const model = fakeModel([
      { toolCalls: [{ id: 'c1', name: 'read_file', argumentsJson: '{"path":"add.js"}' }], finishReason: 'tool_calls', unreadParts: ['a field "x_extra" (y)'] },
      { text: 'ok' },
    ]);
    const h = await runScripted([], { deps: { model } });
    assert.equal(h.outcome.status, 'finished');
    const roles = model.requests[1]!.messages.slice(-3).map((m) => m.role);
    assert.deepEqual(roles, ['assistant', 'tool', 'user']);
  });

  test('a refusal is shown as one and ends the run with it as the answer', async () => {
    const model = fakeModel([{ refusal: "I can't help with that." }]);
    const h = await runScripted([], { deps: { model } });
    assert.deepEqual([h.outcome.status, h.outcome.reason, h.outcome.summary], ['finished', 'the model refused', "I can't help with that."]);
    assert.deepEqual(
      h.events.filter((e) => e.type === 'model/notice').map((e) => (e as { message: string }).message),
      ["The model refused: I can't help with that."],
    );
  });

  test('an empty reply is never a silent finish: noticed, asked again', async () => {
    const model = fakeModel([{ text: '' }, { text: 'Here it is.' }]);
    const h = await runScripted([], { deps: { model } });
    assert.equal(h.outcome.summary, 'Here it is.');
    assert.deepEqual(
      h.events.filter((e) => e.type === 'model/notice').map((e) => (e as { kind: string }).kind),
      ['empty-reply'],
    );
    assert.match(String(lastMessage(model.requests[1]!).content), /Your last reply was empty/);
  });

  test('reasoning rides along in the conversation for the provider rule to use', async () => {
    const model = fakeModel([
      { reasoning: 'look first', toolCalls: [{ id: 'c1', name: 'read_file', argumentsJson: '{"path":"add.js"}' }], finishReason: 'tool_calls' },
      { text: 'ok' },
    ]);
    await runScripted([], { deps: { model } });
    const assistant = model.requests[1]!.messages.find((m) => m.role === 'assistant');
    assert.equal((assistant as { reasoning?: string }).reasoning, 'look first');
  });
});
