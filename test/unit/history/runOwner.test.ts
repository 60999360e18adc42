// Runs whose process is gone (kill -9, a crash, a closed machine) must not stay "running" forever:
// opening the history marks them interrupted; runs whose process lives stay untouched.
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { HistoryEngine } from '../../../src/core/history/engine';
import { currentOwner, processStart, runIsOrphaned, SILENT_RUN_STALE_MS } from '../../../src/core/history/runOwner';
import type { RunOwner } from '../../../src/core/history/ops';
import { withHistoryWorkspace } from '../../support/historyWorkspace';

const me = currentOwner();
/** The pid of a process that has exited and been reaped. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
after(() => sleeper.kill('SIGKILL'));

describe('runIsOrphaned', () => {
  const recent = { lastActivity: Date.now() };
  test('this machine: a dead pid is gone, a live one is not, our own process is not', () => {
    assert.equal(runIsOrphaned({ ...recent, owner: { host: me.host, pid: deadPid(), start: null } }, Date.now()), true);
    assert.equal(runIsOrphaned({ ...recent, owner: { host: me.host, pid: sleeper.pid!, start: processStart(sleeper.pid!) } }, Date.now()), false);
    assert.equal(runIsOrphaned({ ...recent, owner: me }, Date.now()), false);
  });

  test(
    'a reused pid (the process at that pid started at another time) is gone',
    { skip: processStart(process.pid) === null ? 'no /proc start times here' : false },
    () => {
      const other: RunOwner = { host: me.host, pid: sleeper.pid!, start: '1' };
      assert.equal(runIsOrphaned({ ...recent, owner: other }, Date.now()), true);
    },
  );

  test('another machine, or no owner recorded: gone only after a day of silence', () => {
    const elsewhere: RunOwner = { host: `${me.host}-elsewhere`, pid: process.pid, start: null };
    const now = Date.now();
    assert.equal(runIsOrphaned({ owner: elsewhere, lastActivity: now - 60_000 }, now), false);
    assert.equal(runIsOrphaned({ owner: elsewhere, lastActivity: now - SILENT_RUN_STALE_MS - 1 }, now), true);
    assert.equal(runIsOrphaned({ owner: null, lastActivity: now - SILENT_RUN_STALE_MS - 1 }, now), true);
    assert.equal(runIsOrphaned({ owner: null, lastActivity: now }, now), false);
  });

  test('pid 0 or a negative pid (process groups) is never probed as alive', () => {
    for (const pid of [0, -1]) assert.equal(runIsOrphaned({ ...recent, owner: { host: me.host, pid, start: null } }, Date.now()), true);
  });
});

describe('opening the history', () => {
  test('marks a run whose process died interrupted, ending at its last step, with its model steps counted; live runs stay running', () =>
    withHistoryWorkspace(async (ws) => {
      const first = await HistoryEngine.open({ path: ws.db });
      const start = (goal: string, owner: RunOwner) => {
        const id = `run-${goal}`;
        first.db.apply({ op: 'startRun', id, goal, reasoningModel: null, fastModel: null, startedAt: 1_000, owner });
        return id;
      };
      const killed = start('killed', { host: me.host, pid: deadPid(), start: null });
      first.addStep(killed, { role: 'assistant', text: 'step one', time: 2_000 });
      first.addStep(killed, { role: 'tool', tool: 'read_file', result: 'x', time: 3_000 });
      first.addStep(killed, { role: 'assistant', text: 'step two', time: 4_000 });
      const alive = start('alive', { host: me.host, pid: sleeper.pid!, start: processStart(sleeper.pid!) });
      first.startRun({ goal: 'mine' });
      const done = first.startRun({ goal: 'done' });
      first.finishRun(done, { status: 'finished', steps: 3 });
      first.close();

      const reopened = await HistoryEngine.open({ path: ws.db });
      try {
        const byGoal = Object.fromEntries(reopened.listRuns().map((r) => [r.goal, r]));
        assert.equal(byGoal.killed!.status, 'interrupted');
        assert.equal(byGoal.killed!.endedAt, 4_000, 'ended at its last sign of life');
        assert.equal(byGoal.killed!.steps, 2);
        assert.equal(byGoal.alive!.status, 'running');
        assert.equal(byGoal.mine!.status, 'running', 'this process is alive');
        assert.deepEqual([byGoal.done!.status, byGoal.done!.steps], ['finished', 3]);
        assert.equal(reopened.getRun(killed)!.run.status, 'interrupted');
        assert.equal(reopened.getRun(alive)!.run.id, alive);
      } finally {
        reopened.close();
      }
    }));

  test('a real end recorded after the interruption wins, and the interruption never overwrites an end', () =>
    withHistoryWorkspace(async (ws) => {
      const engine = await HistoryEngine.open({ path: ws.db });
      try {
        const a = engine.startRun({ goal: 'a' });
        engine.db.apply({ op: 'markInterrupted', id: a, endedAt: 5 });
        engine.finishRun(a, { status: 'finished', steps: 1 });
        const b = engine.startRun({ goal: 'b' });
        engine.finishRun(b, { status: 'cancelled', steps: 1 });
        engine.db.apply({ op: 'markInterrupted', id: b, endedAt: 5 });
        assert.deepEqual(
          engine
            .listRuns()
            .map((r) => [r.goal, r.status])
            .sort(),
          [
            ['a', 'finished'],
            ['b', 'cancelled'],
          ],
        );
      } finally {
        engine.close();
      }
    }));
});
