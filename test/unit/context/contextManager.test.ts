import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPairProblem, isSummary } from '../../../src/core/context/compaction';
import { ContextManager, type CompactionReport } from '../../../src/core/context/contextManager';
import { Conversation } from '../../../src/core/context/conversation';
import { TokenCalibration } from '../../../src/core/context/tokenCounter';
import type { CompleteRequest } from '../../../src/core/llm/modelClient';
import type { ModelMessage, ModelRole, ModelTurn } from '../../../src/core/llm/types';

/** The model port's summary side: records what it was asked and answers with a short summary (or fails). */
function fakeModel(options: { fail?: boolean; fast?: string; summary?: (prompt: string) => string } = {}) {
  const asked: CompleteRequest[] = [];
  return {
    asked,
    modelFor: (role: ModelRole) => (role === 'fast' ? (options.fast ?? 'main') : 'main'),
    contextWindow: () => ({ tokens: 100_000, known: true }),
    async complete(req: CompleteRequest): Promise<ModelTurn> {
      asked.push(req);
      if (options.fail) throw new Error('503 from the model');
      const text = options.summary?.(req.prompt ?? '') ?? `read ${(req.prompt?.match(/call read_file/g) ?? []).length} files`;
      return {
        role: req.role ?? 'fast',
        model: 'm',
        text,
        toolCalls: [],
        invalidToolCalls: [],
        finishReason: 'stop',
        rawFinishReason: 'stop',
        usage: { promptTokens: 10, completionTokens: 5, estimated: false },
        attempts: 1,
      };
    },
  };
}

function setup(options: { budget: number; model?: ReturnType<typeof fakeModel>; earlier?: ModelMessage[]; fastModel?: string; system?: string }) {
  const conversation = new Conversation(options.system ?? 'You are a test agent.', 'the goal', 16_000, options.earlier ?? []);
  const reports: CompactionReport[] = [];
  const warnings: string[] = [];
  const model = options.model ?? fakeModel();
  const manager = new ContextManager(conversation, [], conversation.goal, {
    settings: { context: { maxTokens: options.budget, maxTokensByModel: {} }, llm: { contextWindows: {}, fastModel: options.fastModel } },
    model,
    calibration: new TokenCalibration(),
    onCompacted: (r) => reports.push(r),
    warn: (m) => warnings.push(m),
  });
  let n = 0;
  const step = (resultChars = 1_500) => {
    const id = `c${n++}`;
    conversation.addAssistant('', [{ id, name: 'read_file', argumentsJson: JSON.stringify({ path: `f${id}.ts` }) }]);
    conversation.addToolResult(id, `${id}: ${'x'.repeat(resultChars)}`);
  };
  return { conversation, manager, reports, warnings, model, step };
}

const signal = new AbortController().signal;

test('under the budget nothing changes; over it the work before the last round is summarized by the fast model', async () => {
  const s = setup({ budget: 3_000, fastModel: 'fast-one', model: fakeModel({ fast: 'fast-one' }) });
  s.step();
  let sent = await s.manager.prepare(signal);
  assert.equal(s.reports.length, 0);
  assert.equal(sent.messages.length, 4);
  for (let i = 0; i < 8; i++) s.step();
  const before = s.manager.count();
  assert.ok(before > 3_000);
  sent = await s.manager.prepare(signal);
  assert.equal(s.reports.length, 1);
  const r = s.reports[0]!;
  assert.deepEqual([r.beforeTokens, r.summarizedMessages, r.model, r.digests], [before, 16, 'fast-one', 0]);
  assert.ok(r.afterTokens <= 3_000 && r.afterTokens === s.manager.count(), JSON.stringify(r));
  assert.equal(s.model.asked.length, 1);
  assert.equal(s.model.asked[0]!.role, 'fast');
  assert.match(s.model.asked[0]!.prompt!, /The user's request:\nthe goal/);
  // system, goal, the summary, then the last round whole.
  assert.deepEqual(
    sent.messages.map((m) => (isSummary(m) ? 'summary' : m.role)),
    ['system', 'user', 'summary', 'assistant', 'tool'],
  );
  assert.match(sent.messages[2]!.content!, /read 8 files/);
  assert.equal((sent.messages[4] as { toolCallId: string }).toolCallId, 'c8');
  assert.equal(findPairProblem(sent.messages), undefined);
  assert.notEqual(sent.version, 0);
  // Under the budget again: the next step sends as is, with no second summary.
  await s.manager.prepare(signal);
  assert.equal(s.reports.length, 1);
});

test('no fast model: the reasoning model writes the summary', async () => {
  const s = setup({ budget: 2_000 });
  for (let i = 0; i < 6; i++) s.step();
  await s.manager.prepare(signal);
  assert.equal(s.model.asked[0]!.role, 'reasoning');
  assert.equal(s.reports[0]!.model, 'main');
});

test('a failing model: a plain list of the steps stands in, one warning, the context still fits', async () => {
  const s = setup({ budget: 2_500, model: fakeModel({ fail: true }) });
  for (let i = 0; i < 8; i++) s.step();
  const sent = await s.manager.prepare(signal);
  assert.equal(s.reports[0]!.digests, 1);
  assert.match(s.warnings.join('\n'), /fell back to a plain list of steps: 503 from the model/);
  const summary = sent.messages.find(isSummary)!;
  assert.match(summary.content ?? '', /read_file \{"path":"fc0\.ts"\} -> c0: x+/);
  assert.ok(s.manager.count() <= 2_500);
});

test('still over after the summary: the oldest summaries, then the oldest earlier exchanges are dropped; the goal stays', async () => {
  const earlier: ModelMessage[] = [];
  for (let i = 0; i < 6; i++)
    earlier.push(
      { role: 'user', content: `earlier goal ${i} ${'y'.repeat(1_600)}` },
      { role: 'assistant', summary: true, content: `[summary] ${'z'.repeat(400)}` },
    );
  const s = setup({ budget: 2_500, earlier, model: fakeModel({ summary: () => 'w'.repeat(1_500) }) });
  for (let i = 0; i < 3; i++) s.step(800);
  const sent = await s.manager.prepare(signal);
  const r = s.reports[0]!;
  assert.equal(r.summarizedMessages, 4);
  assert.equal(r.droppedSummaries, 7); // the six earlier ones, then the new one
  assert.ok(r.droppedExchanges >= 1, JSON.stringify(r));
  assert.ok(s.manager.count() <= 2_500);
  const users = sent.messages.filter((m) => m.role === 'user').map((m) => m.content.slice(0, 14));
  assert.equal(users.at(-1), 'the goal');
  // What was dropped is the oldest: the earlier goals left are the newest ones, in order.
  const left = users.slice(0, -1).map((u) => Number(u.slice(13)));
  assert.deepEqual(left, [...left].sort());
  assert.ok(left.every((n) => n >= r.droppedExchanges));
  assert.equal(findPairProblem(sent.messages), undefined);
});

test('the last round alone over the budget: its largest results are cut head and tail, never the system prompt', async () => {
  const s = setup({ budget: 3_000 });
  // Five parallel results, each at the cap a result may have when it enters (a quarter of the budget).
  const ids = ['p1', 'p2', 'p3', 'p4', 'p5'];
  s.conversation.addAssistant(
    '',
    ids.map((id) => ({ id, name: 'read_file', argumentsJson: `{"path":"${id}"}` })),
  );
  for (const id of ids) s.conversation.addToolResult(id, `${id}-START ${'a'.repeat(8_000)} ${id}-END`);
  const sent = await s.manager.prepare(signal);
  assert.equal(s.reports[0]!.summarizedMessages, 0);
  assert.ok(s.reports[0]!.cutMessages >= 1);
  assert.ok(s.manager.count() <= 3_000, String(s.manager.count()));
  const results = sent.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  assert.equal(results.length, 5);
  assert.equal(findPairProblem(sent.messages), undefined);
  for (const text of results) assert.match(text, /^(\[cut to fit the context budget\]\n)?p\d-START[\s\S]*left out here[\s\S]*p\d-END$/);
  assert.equal(sent.messages[0]!.content, 'You are a test agent.');
});

test('a system prompt over the budget by itself: sent anyway with one clear warning', async () => {
  const s = setup({ budget: 1_000, system: 'r'.repeat(8_000) });
  s.step(100);
  await s.manager.prepare(signal);
  assert.match(s.warnings.join('\n'), /stays over the budget of 1000 \(patchpilot\.context\.maxTokens\)/);
});

test('tool results entering the context are cut to a share of the budget', () => {
  const s = setup({ budget: 8_000 });
  s.conversation.addAssistant('', [{ id: 'big', name: 'grep', argumentsJson: '{}' }]);
  s.conversation.addToolResult('big', 'x\n'.repeat(50_000));
  const content = (s.conversation.messages.at(-1) as { content: string }).content;
  assert.ok(content.length < 8_000 * 0.25 * 4 + 200, String(content.length));
  assert.match(content, /lines \d+-\d+ of 50,000 left out here/);
});

test('usage reports calibrate the count: a server that counts 1.3x our estimate', async () => {
  const s = setup({ budget: 50_000 });
  s.step();
  const sent = await s.manager.prepare(signal);
  s.manager.observe(sent, { promptTokens: Math.round(sent.estimate * 1.3), completionTokens: 5, estimated: false });
  assert.equal(s.manager.count(), Math.round(sent.estimate * 1.3));
  s.step();
  assert.ok(s.manager.count() > Math.round(sent.estimate * 1.3) + (sent.estimate / 2) * 1.3 * 0.9);
});
