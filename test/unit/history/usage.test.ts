// model_usage (migration 7): each request's usage under its source, a run's usage by source, the
// workspace's day (subagent runs counted once, in their parent; runs from before the table by
// their totals), per-day views, and deleting a run takes its rows along.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryEngine } from '../../../src/core/history/engine';
import { localDay, startOfLocalDay } from '../../../src/core/history/usage';
import { tempHistoryWorkspace } from '../../support/historyWorkspace';

const NOW = new Date(2026, 10, 27, 15, 0, 0).getTime();
const DAY = 86_400_000;

async function withEngine(fn: (engine: HistoryEngine) => void): Promise<void> {
  const ws = tempHistoryWorkspace();
  const engine = await HistoryEngine.open({ path: ws.db, now: () => NOW });
  try {
    fn(engine);
  } finally {
    engine.close();
    ws.cleanup();
  }
}

const request = (runId: string, source: string, promptTokens: number, costUsd: number | null, time = NOW) => ({
  runId,
  source,
  role: source === 'fast' ? 'fast' : 'reasoning',
  model: 'm',
  promptTokens,
  completionTokens: 10,
  costUsd,
  time,
});

describe('model usage in the history', () => {
  test("a run's usage by source, in the order the sources appeared; unpriced requests are counted apart", () =>
    withEngine((engine) => {
      const run = engine.startRun({ goal: 'g' });
      engine.addUsage(request(run, 'main', 1_000, 0.01, NOW));
      engine.addUsage(request(run, 'subagent 1', 500, 0.005, NOW + 1));
      engine.addUsage({ ...request(run, 'main', 1_000, 0.01, NOW + 2), cachedTokens: 800 });
      engine.addUsage(request(run, 'fast', 100, null, NOW + 3));
      assert.deepEqual(engine.runUsage(run), [
        { source: 'main', requests: 2, promptTokens: 2_000, cachedTokens: 800, completionTokens: 20, costUsd: 0.02, unpricedRequests: 0 },
        { source: 'subagent 1', requests: 1, promptTokens: 500, cachedTokens: 0, completionTokens: 10, costUsd: 0.005, unpricedRequests: 0 },
        { source: 'fast', requests: 1, promptTokens: 100, cachedTokens: 0, completionTokens: 10, costUsd: null, unpricedRequests: 1 },
      ]);
      const audit = engine.auditPage('model_usage', 0, 10);
      assert.equal(audit.length, 4, 'the audit export carries every request');
      assert.deepEqual(audit[3], { table: 'model_usage', row: { ...audit[3]!.row, source: 'fast', promptTokens: 100, costUsd: null, estimated: false } });
      assert.equal(engine.stats().rows.model_usage, 4);
      assert.throws(() => engine.addUsage({ ...request(run, 'main', -1, 0) }), /promptTokens must be a number >= 0/);
      assert.throws(() => engine.addUsage({ ...request('no-such-run', 'main', 1, 0) }), /no run with id/);
    }));

  test("the day's spend: top-level runs only (a subagent's rows are in its parent too), older runs by their totals, yesterday left out", () =>
    withEngine((engine) => {
      const parent = engine.startRun({ goal: 'parent', startedAt: NOW - 1_000 });
      const child = engine.startRun({ goal: 'child', parentRunId: parent, startedAt: NOW - 500 });
      engine.addUsage(request(parent, 'main', 1, 0.1));
      engine.addUsage(request(parent, 'subagent 1', 1, 0.2));
      engine.addUsage(request(child, 'main', 1, 0.2));
      const old = engine.startRun({ goal: 'before the table', startedAt: NOW - 2_000 });
      engine.finishRun(old, { status: 'finished', costUsd: 0.05, endedAt: NOW - 1_500 });
      const yesterday = engine.startRun({ goal: 'yesterday', startedAt: NOW - DAY });
      engine.addUsage(request(yesterday, 'main', 1, 9, NOW - DAY));
      assert.ok(Math.abs(engine.costSince(startOfLocalDay(NOW)) - 0.35) < 1e-9, String(engine.costSince(startOfLocalDay(NOW))));

      const days = engine.usageByDay(2);
      assert.deepEqual(
        days.map((d) => [d.day, d.sources.map((s) => s.source), d.costUsd]),
        [
          [localDay(NOW), ['main', 'subagent 1'], 0.30000000000000004],
          [localDay(NOW - DAY), ['main'], 9],
        ],
      );
      assert.deepEqual(
        engine.usageByDay(1).map((d) => d.day),
        [localDay(NOW)],
      );
      engine.deleteRun(parent);
      assert.deepEqual(engine.runUsage(parent), [], "a deleted run's usage rows go with it");
    }));
});
