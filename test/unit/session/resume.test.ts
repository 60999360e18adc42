import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPairProblem, summaryMessage } from '../../../src/core/context/compaction';
import { openHistoryStore, type JsonValue } from '../../../src/core/history';
import { findRun, loadSession } from '../../../src/core/session/resume';
import { call, runScripted } from '../orchestrator/harness';
import { tempWorkspace } from '../tools/helpers';

test('a finished run records its transcript; resuming gives exactly what the next follow-up would have seen', async () => {
  await runScripted(
    [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' }), call('list_dir', {})] } },
      { reply: { toolCalls: [call('finish', { summary: 'add() subtracts; nothing changed.' })] } },
    ],
    {
      goal: 'why does add fail',
      inspect: async (h) => {
        await h.history.flush();
        const resumed = await loadSession(h.history, 'last');
        assert.equal(resumed.recorded, true);
        assert.equal(resumed.run.goal, 'why does add fail');
        assert.deepEqual(
          resumed.transcript.map((m) => m.role),
          ['user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant'],
        );
        assert.equal(findPairProblem(resumed.transcript), undefined);
        assert.equal(resumed.transcript.at(-1)!.content, 'add() subtracts; nothing changed.');
      },
    },
  ).then((h) => assert.equal(h.outcome.status, 'finished'));
});

test('a run that never ended (the process was killed) is rebuilt from its steps: earlier turns, goal, calls paired with results', async () => {
  const ws = tempWorkspace();
  const store = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
  try {
    const runId = await store.startRun({ goal: 'second goal' });
    const earlier: JsonValue = [
      { role: 'user', content: 'first goal' },
      { role: 'user', summary: true, content: '[Summary] read a.ts' },
      { role: 'assistant', content: 'done first' },
    ];
    await store.addStep(runId, { role: 'system', tool: 'context/earlier', text: '3 message(s)', arguments: earlier });
    await store.addStep(runId, { role: 'system', text: 'git main abc' });
    await store.addStep(runId, { role: 'user', text: 'second goal' });
    await store.addStep(runId, {
      role: 'assistant',
      text: null,
      arguments: [
        { id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' },
        { id: 'c2', name: 'grep', invalid: 'Unexpected end of JSON' },
      ],
    });
    await store.addStep(runId, { role: 'tool', tool: 'read_file', arguments: { path: 'a.ts' }, result: '1\tconst a = 1;' });
    await store.addStep(runId, { role: 'tool', tool: 'grep', result: 'error: the arguments of grep were not valid JSON' });
    await store.addStep(runId, { role: 'system', tool: 'context/summary', text: 'context summarized: 9k -> 3k tokens' });
    await store.addStep(runId, { role: 'user', text: 'also check b.ts' });
    await store.addStep(runId, { role: 'assistant', text: 'reading b', arguments: [{ id: 'c3', name: 'read_file', arguments: '{"path":"b.ts"}' }] });
    // Killed here: c3 has no result.
    const resumed = await loadSession(store, runId.slice(0, 8));
    assert.equal(resumed.recorded, false);
    assert.deepEqual(resumed.transcript, [
      { role: 'user', content: 'first goal' },
      // Recorded as a user message by an older version: it comes back as a note, never as the user's words.
      summaryMessage('[Summary] read a.ts'),
      { role: 'assistant', content: 'done first' },
      { role: 'user', content: 'second goal' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'c1', name: 'read_file', argumentsJson: '{"path":"a.ts"}' },
          { id: 'c2', name: 'grep', argumentsJson: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: '1\tconst a = 1;' },
      { role: 'tool', toolCallId: 'c2', content: 'error: the arguments of grep were not valid JSON' },
      { role: 'user', content: 'also check b.ts' },
    ]);
  } finally {
    await store.close();
    ws.cleanup();
  }
});

test("a killed follow-up whose earlier turns are a reference: the previous run's recorded transcript, then its own steps", async () => {
  const ws = tempWorkspace();
  const store = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
  try {
    const first = await store.startRun({ goal: 'first goal' });
    await store.addStep(first, { role: 'user', text: 'first goal' });
    await store.addStep(first, {
      role: 'system',
      tool: 'context/transcript',
      arguments: [
        { role: 'user', content: 'first goal' },
        { role: 'assistant', content: 'first answer' },
      ],
    });
    await store.finishRun(first, { status: 'finished' });
    const second = await store.startRun({ goal: 'second goal', startedAt: Date.now() + 1_000 });
    await store.addStep(second, { role: 'system', tool: 'context/earlier', arguments: { fromRun: first } });
    await store.addStep(second, { role: 'user', text: 'second goal' });
    const resumed = await loadSession(store, 'last');
    assert.equal(resumed.run.id, second);
    assert.deepEqual(resumed.transcript, [
      { role: 'user', content: 'first goal' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second goal' },
    ]);
  } finally {
    await store.close();
    ws.cleanup();
  }
});

test('runs are named by "last", an id or a unique prefix; anything else is a clear error', async () => {
  const runs = [{ id: 'abc123' }, { id: 'abd456' }] as never[];
  const store = { listRuns: async () => runs };
  assert.equal(((await findRun(store, 'last')) as { id: string }).id, 'abc123');
  assert.equal(((await findRun(store, 'abd')) as { id: string }).id, 'abd456');
  await assert.rejects(findRun(store, 'ab'), /prefix 'ab' is ambiguous \(2 runs\)/);
  await assert.rejects(findRun(store, 'zzz'), /no run with id zzz/);
  await assert.rejects(findRun({ listRuns: async () => [] }, 'last'), /no runs recorded/);
});
