// The chat log's questions about its runs: which run it shows last (whose conversation a follow-up
// continues), and whether that run never ended (the window went away while it worked).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatLog } from '../../../src/host/vscode/chat/persistence/chatLog';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

const started = (runId: string | null): AgentEvent => ({
  type: 'run/started',
  runId,
  goal: 'g',
  mode: 'ask',
  model: 'm',
  git: { isRepo: false, head: null, branch: null, dirty: [] },
});
const finished: AgentEvent = { type: 'run/finished', status: 'finished', reason: 'done', steps: 1 };
const log = (...events: AgentEvent[]) => new ChatLog([{ kind: 'user', text: 'hi' }, ...events.map((event) => ({ kind: 'event' as const, event }))]);

test('lastRunId: the newest recorded run, none for an empty log or an unrecorded run', () => {
  assert.equal(new ChatLog().lastRunId(), undefined);
  assert.equal(log(started('r1'), finished, started('r2')).lastRunId(), 'r2');
  assert.equal(log(started('r1'), finished, started(null)).lastRunId(), undefined, 'the newest run had no history');
});

test('unfinishedRunSteps: the steps a run without its end began; undefined once it ended or with no run', () => {
  assert.equal(new ChatLog().unfinishedRunSteps(), undefined);
  assert.equal(log(started('r1'), { type: 'step/started', step: 1 }, finished).unfinishedRunSteps(), undefined);
  assert.equal(log(started('r1'), finished, started('r2')).unfinishedRunSteps(), 0);
  assert.equal(
    log(started('r1'), { type: 'step/started', step: 1 }, { type: 'text/delta', text: 'x' }, { type: 'step/started', step: 2 }).unfinishedRunSteps(),
    2,
  );
});

test('add: consecutive text deltas and consecutive reasoning deltas are each kept as one entry, in order', () => {
  const l = new ChatLog();
  const add = (event: AgentEvent) => l.add({ kind: 'event', event });
  add({ type: 'reasoning/delta', text: 'think ' });
  add({ type: 'reasoning/delta', text: 'more' });
  add({ type: 'text/delta', text: 'ans' });
  add({ type: 'text/delta', text: 'wer' });
  add({ type: 'reasoning/delta', text: 'again' });
  assert.deepEqual(
    l.entries.map((e) => (e.kind === 'event' ? e.event : e)),
    [
      { type: 'reasoning/delta', text: 'think more' },
      { type: 'text/delta', text: 'answer' },
      { type: 'reasoning/delta', text: 'again' },
    ],
  );
});
