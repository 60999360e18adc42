import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openHistoryStore } from '../../../src/core/history';
import { listConversations } from '../../../src/core/session';
import { tempWorkspace } from '../tools/helpers';

test('conversations: a chain of follow-up runs is listed once, as its newest run, titled by its first message', async () => {
  const ws = tempWorkspace();
  const store = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
  try {
    let t = 1_000_000;
    const run = async (goal: string, earlier?: unknown) => {
      const id = await store.startRun({ goal, startedAt: (t += 1000), reasoningModel: 'm1' });
      if (earlier) await store.addStep(id, { role: 'system', tool: 'context/earlier', text: 'earlier', arguments: earlier as never });
      await store.finishRun(id, { status: 'finished', endedAt: t + 10 });
      return id;
    };
    const a1 = await run('explain the project');
    const a2 = await run('and the tests?', { fromRun: a1 });
    const a3 = await run('add one', { fromRun: a2 });
    const b1 = await run('fix the date bug');
    // A follow-up whose earlier turns were copied (no run to point at): titled by the copy's first message.
    const c1 = await run('go on', [
      { role: 'user', content: 'rename the helper' },
      { role: 'assistant', content: 'done' },
    ]);
    const sub = await store.startRun({ goal: 'a subagent', parentRunId: b1, startedAt: (t += 1000) });
    await store.finishRun(sub, { status: 'finished' });
    await store.flush();

    const list = await listConversations(store);
    assert.deepEqual(
      list.map((c) => [c.runId, c.title, c.lastGoal, c.runs]),
      [
        [c1, 'rename the helper', 'go on', 1],
        [b1, 'fix the date bug', 'fix the date bug', 1],
        [a3, 'explain the project', 'add one', 3],
      ],
    );
    assert.equal((await listConversations(store, 1)).length, 1);
    assert.equal(list[0]!.model, 'm1');
  } finally {
    await store.close();
    ws.cleanup();
  }
});
