import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyCompaction,
  completePairs,
  dropOldestExchange,
  dropOldestSummary,
  findPairProblem,
  isSummary,
  lastRoundStart,
  planCompaction,
  summaryMessage,
} from '../../../src/core/context/compaction';
import type { ModelMessage } from '../../../src/core/llm/types';
import { seededRandom } from '../../support/seededRandom';

const sys: ModelMessage = { role: 'system', content: 'rules' };
const user = (content: string): ModelMessage => ({ role: 'user', content });
const calls = (...ids: string[]): ModelMessage => ({
  role: 'assistant',
  content: null,
  toolCalls: ids.map((id) => ({ id, name: 'read_file', argumentsJson: `{"path":"${id}.ts"}` })),
});
const result = (id: string): ModelMessage => ({ role: 'tool', toolCallId: id, content: `content of ${id}` });
const roles = (list: readonly ModelMessage[]) =>
  list.map((m) => (isSummary(m) ? 'summary' : m.role === 'tool' ? `tool:${m.toolCallId}` : m.role === 'user' ? `user:${m.content}` : m.role));

test('the work before the last round becomes one summary after its user message; users and the last round stay', () => {
  const list = [
    sys,
    user('goal'),
    calls('a', 'b'),
    result('a'),
    result('b'),
    calls('c'),
    result('c'),
    user('also this'),
    calls('d'),
    result('d'),
    calls('e'),
    result('e'),
  ];
  const plan = planCompaction(list);
  assert.equal(plan.lastRoundStart, 10);
  assert.deepEqual(
    plan.jobs.map((j) => [j.request, j.work.length]),
    [
      ['goal', 5],
      ['also this', 2],
    ],
  );
  const out = applyCompaction(list, plan, ['S1', 'S2']);
  assert.deepEqual(roles(out), ['system', 'user:goal', 'summary', 'user:also this', 'summary', 'assistant', 'tool:e']);
  assert.match(out[2]!.content!, /\nS1\n<\/earlier-work-summary>$/);
  assert.equal(findPairProblem(out), undefined);
});

test('a segment already summarized with new work gets one new summary that replaces the old one', () => {
  const list = [sys, user('goal'), summaryMessage('old'), calls('x'), result('x'), calls('y'), result('y')];
  const plan = planCompaction(list);
  assert.deepEqual(
    plan.jobs.map((j) => j.previousSummaries),
    [['old']],
  );
  assert.deepEqual(roles(applyCompaction(list, plan, ['new'])), ['system', 'user:goal', 'summary', 'assistant', 'tool:y']);
});

test('nothing to summarize when only the last round follows the user messages', () => {
  const list = [sys, user('goal'), summaryMessage('s'), calls('a'), result('a'), user('note during the step')];
  assert.equal(planCompaction(list).jobs.length, 0);
  assert.equal(lastRoundStart([sys, user('goal')]), 2);
});

test('dropping: oldest summary first, then the oldest earlier exchange, never the goal or what follows it', () => {
  const goal = user('goal');
  const list = [sys, user('earlier 1'), summaryMessage('s1'), user('earlier 2'), summaryMessage('s2'), goal, summaryMessage('s3'), calls('a'), result('a')];
  const one = dropOldestSummary(list)!;
  assert.deepEqual(roles(one), ['system', 'user:earlier 1', 'user:earlier 2', 'summary', 'user:goal', 'summary', 'assistant', 'tool:a']);
  const two = dropOldestExchange(one, goal)!;
  assert.deepEqual(roles(two), ['system', 'user:earlier 2', 'summary', 'user:goal', 'summary', 'assistant', 'tool:a']);
  const three = dropOldestExchange(two, goal)!;
  assert.deepEqual(roles(three), ['system', 'user:goal', 'summary', 'assistant', 'tool:a']);
  assert.equal(dropOldestExchange(three, goal), undefined);
  assert.equal(dropOldestExchange(three, user('a goal not in the list')), undefined);
});

test('pair problems are named; a cancelled step is cut off by completePairs', () => {
  assert.match(findPairProblem([sys, calls('a', 'b'), result('a')])!, /call\(s\) b without a result/);
  assert.match(findPairProblem([sys, user('g'), result('z')])!, /without its call/);
  assert.match(findPairProblem([sys, calls('a'), result('b')])!, /answers no open call/);
  assert.deepEqual(roles(completePairs([user('g'), calls('a'), result('a'), calls('b')])), ['user:g', 'assistant', 'tool:a']);
});

test('property: on random conversations a compaction keeps every user message, the last round whole, and every pair', () => {
  const random = seededRandom(11);
  for (let n = 0; n < 500; n++) {
    const list: ModelMessage[] = [sys];
    let id = 0;
    const users: string[] = [];
    const length = 1 + Math.floor(random() * 30);
    for (let i = 0; i < length; i++) {
      const r = random();
      if (r < 0.15 || list.length === 1) {
        users.push(`u${i}`);
        list.push(user(`u${i}`));
      } else if (r < 0.2) list.push(summaryMessage(`s${i}`));
      else if (r < 0.3) list.push({ role: 'assistant', content: `text ${i}` });
      else {
        const ids = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `c${id++}`);
        list.push(calls(...ids), ...ids.map(result));
      }
    }
    const plan = planCompaction(list);
    const out = applyCompaction(
      list,
      plan,
      plan.jobs.map((_, i) => `summary ${i}`),
    );
    assert.equal(findPairProblem(out), undefined, `case ${n}`);
    assert.deepEqual(
      out.filter((m) => m.role === 'user' && !isSummary(m)).map((m) => m.content),
      users,
      `case ${n}`,
    );
    assert.deepEqual(out.slice(lastRoundStart(out)), list.slice(plan.lastRoundStart), `case ${n}`);
    assert.equal(out[0], sys);
    // Idempotent: a second plan finds nothing left to summarize.
    assert.equal(planCompaction(out).jobs.length, 0, `case ${n}`);
  }
});
