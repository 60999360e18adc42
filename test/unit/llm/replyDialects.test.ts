// The parts of a reply servers send in their own dialects: inline <think> tags split anywhere,
// tool calls written as text, delta fields and content parts, and which provider gets reasoning back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkTagSplitter, type ThinkPiece } from '../../../src/core/llm/thinkTags';
import { readTextToolCalls } from '../../../src/core/llm/textToolCalls';
import { readDelta } from '../../../src/core/llm/deltaReader';
import { reasoningReplayFor } from '../../../src/core/llm/reasoningReplay';
import { toWireMessages } from '../../../src/core/llm/wire';

/** Feeds the text in pieces of `size` characters; returns what became text and reasoning (a retraction moves the text so far). */
function split(text: string, size: number): { text: string; reasoning: string } {
  const s = new ThinkTagSplitter();
  let out = { text: '', reasoning: '' };
  const take = (pieces: ThinkPiece[]) => {
    for (const p of pieces) {
      if (p.kind === 'text') out.text += p.text;
      else if (p.kind === 'reasoning') out.reasoning += p.text;
      else out = { text: '', reasoning: out.reasoning + out.text + p.text };
    }
  };
  for (let i = 0; i < text.length; i += size) take(s.push(text.slice(i, i + size)));
  take(s.flush());
  return out;
}

describe('ThinkTagSplitter: inline <think> in any chunking', () => {
  const cases: [string, string, { text: string; reasoning: string }][] = [
    ['opened and closed', '<think>\nplan\n</think>\n\nAnswer.', { text: 'Answer.', reasoning: '\nplan\n' }],
    ['the template opened it: only </think> arrives', 'plan first\n</think>\n\nAnswer.', { text: 'Answer.', reasoning: 'plan first\n' }],
    ['no tags at all', 'Just an answer with <b>html</b>.', { text: 'Just an answer with <b>html</b>.', reasoning: '' }],
    ['leading whitespace before <think>', '\n<think>x</think>y', { text: 'y', reasoning: 'x' }],
    ['never closed (cut off): all reasoning', '<think>still thinking', { text: '', reasoning: 'still thinking' }],
    ['a later <think> in the answer is text', '<think>a</think>b <think> c', { text: 'b <think> c', reasoning: 'a' }],
    ['starts with "<" that is not a tag', '<div>x</div>', { text: '<div>x</div>', reasoning: '' }],
  ];
  for (const [name, input, want] of cases) {
    test(name, () => {
      for (let size = 1; size <= input.length; size++) assert.deepEqual(split(input, size), want, `pieces of ${size}`);
    });
  }
});

describe('readTextToolCalls: tool calls a server sent as text', () => {
  const tools = new Set(['read_file', 'grep']);
  const one = (text: string) => readTextToolCalls(text, tools);

  test('Hermes/Qwen blocks, several, with text around', () => {
    const r = one(
      'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a"}}\n</tool_call>\n<tool_call>{"name":"grep","arguments":"{\\"pattern\\":\\"x\\"}"}</tool_call>',
    );
    assert.ok(r && 'calls' in r);
    assert.deepEqual(
      r.calls.map((c) => [c.name, JSON.parse(c.argumentsJson)]),
      [
        ['read_file', { path: 'a' }],
        ['grep', { pattern: 'x' }],
      ],
    );
    assert.equal(r.text, 'Let me look.');
  });
  test('Mistral list and the [ARGS] form (with [CALL_ID]), several calls', () => {
    const list = one('[TOOL_CALLS] [{"name": "grep", "arguments": {"pattern": "]"}}]');
    assert.ok(list && 'calls' in list);
    assert.deepEqual(JSON.parse(list.calls[0]!.argumentsJson), { pattern: ']' });
    const args = one('[TOOL_CALLS]read_file[ARGS]{"path": "{a}"}[TOOL_CALLS]grep[CALL_ID]abc123456[ARGS]{"pattern": "q"}');
    assert.ok(args && 'calls' in args);
    assert.deepEqual(
      args.calls.map((c) => [c.name, c.argumentsJson]),
      [
        ['read_file', '{"path":"{a}"}'],
        ['grep', '{"pattern":"q"}'],
      ],
    );
    assert.equal(args.calls[1]!.id, 'abc123456');
  });
  test('Llama bare JSON only as the whole reply and only naming offered tools', () => {
    const r = one('<|python_tag|>{"name": "grep", "parameters": {"pattern": "main"}}');
    assert.ok(r && 'calls' in r);
    assert.equal(one('{"name": "Alice", "parameters": {"age": 3}}'), undefined, 'a JSON answer stays an answer');
    assert.equal(one('Here: {"name": "grep", "parameters": {}}'), undefined);
    assert.equal(readTextToolCalls('{"name": "grep", "parameters": {}}', new Set()), undefined, 'no tools offered: nothing to call');
  });
  test('partial or ambiguous markup is a problem, never a call', () => {
    for (const text of [
      '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}', // never closed
      '<tool_call>{"name": "read_file", "arguments": {"path": </tool_call>', // broken JSON
      '<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>', // not offered
      '<tool_call>{"name": "grep", "arguments": {}}</tool_call><tool_call>{"name": "nope", "arguments": {}}</tool_call>', // one of two unknown: none runs
      '[TOOL_CALLS]read_file[ARGS]{"path": "a"', // cut off
      '[TOOL_CALLS] [{"name": "grep", "arguments": {"pattern": "x"}}', // list not closed
    ]) {
      const r = one(text);
      assert.ok(r && 'problem' in r, text);
    }
  });
});

describe('readDelta: every field and part is read or reported', () => {
  test('reasoning_details are not counted twice when reasoning came as a string too', () => {
    const r = readDelta({ reasoning: 'a', reasoning_details: [{ type: 'reasoning.text', text: 'a' }] });
    assert.deepEqual(r.pieces, [{ kind: 'reasoning', text: 'a' }]);
  });
  test('refusal parts and fields, unknown parts and unknown text fields', () => {
    const r = readDelta({
      content: [
        { type: 'refusal', refusal: 'no' },
        { type: 'audio', data: 'x' },
      ],
      secret_answer: '42',
      x_id: 'ignored',
    });
    assert.deepEqual(r.pieces, [{ kind: 'refusal', text: 'no' }]);
    assert.deepEqual(r.unread, ['a content part of type "audio"', 'a field "secret_answer" (42)']);
  });
  test('a part of unknown type that carries text keeps its text', () => {
    assert.deepEqual(readDelta({ content: [{ type: 'output_text', text: 'hi' }] }), { pieces: [{ kind: 'text', text: 'hi' }], unread: [] });
  });
});

describe('reasoning sent back: per provider, only within the current tool loop', () => {
  test('the table', () => {
    assert.equal(reasoningReplayFor('https://api.deepseek.com/v1', 'deepseek-reasoner'), 'current-tool-loop');
    assert.equal(reasoningReplayFor('http://127.0.0.1:9/v1', 'deepseek-reasoner'), 'current-tool-loop');
    assert.equal(reasoningReplayFor('https://api.moonshot.ai/v1', 'kimi-k2-thinking'), 'current-tool-loop');
    assert.equal(reasoningReplayFor('https://api.moonshot.ai/v1', 'moonshot-v1-8k'), 'never');
    // Decided by the model, not the address: the same models behind a router or a local server keep their chain of thought.
    assert.equal(reasoningReplayFor('https://openrouter.ai/api/v1', 'moonshotai/kimi-k2-thinking'), 'current-tool-loop');
    assert.equal(reasoningReplayFor('https://openrouter.ai/api/v1', 'deepseek/deepseek-reasoner'), 'current-tool-loop');
    assert.equal(reasoningReplayFor('http://127.0.0.1:8000/v1', 'moonshotai/Kimi-K2.5'), 'current-tool-loop');
    // Never where it is rejected: hosts that refuse unknown message fields.
    assert.equal(reasoningReplayFor('https://api.groq.com/openai/v1', 'moonshotai/kimi-k2-thinking'), 'never');
    for (const [url, model] of [
      ['https://api.openai.com/v1', 'o4-mini'],
      ['https://api.mistral.ai/v1', 'magistral-medium-latest'],
      ['https://api.groq.com/openai/v1', 'openai/gpt-oss-120b'],
      ['https://openrouter.ai/api/v1', 'deepseek/deepseek-r1'],
      ['http://127.0.0.1:8000/v1', 'deepseek-ai/DeepSeek-R1'],
      ['http://127.0.0.1:11434/v1', 'qwen3:8b'],
    ])
      assert.equal(reasoningReplayFor(url!, model!), 'never', `${url} ${model}`);
  });
  test('toWireMessages: after the last user message only', () => {
    const messages = [
      { role: 'user' as const, content: 'first' },
      { role: 'assistant' as const, content: 'old answer', reasoning: 'old thoughts' },
      { role: 'user' as const, content: 'second' },
      { role: 'assistant' as const, content: null, toolCalls: [{ id: 'c1', name: 'grep', argumentsJson: '{}' }], reasoning: 'new thoughts' },
      { role: 'tool' as const, toolCallId: 'c1', content: 'r' },
    ];
    const sent = toWireMessages(messages, 'current-tool-loop') as { reasoning_content?: string }[];
    assert.deepEqual(
      sent.map((m) => m.reasoning_content),
      [undefined, undefined, undefined, 'new thoughts', undefined],
    );
    assert.ok((toWireMessages(messages, 'never') as { reasoning_content?: string }[]).every((m) => m.reasoning_content === undefined));
  });
});
