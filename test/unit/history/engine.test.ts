// The store's API on a real sql.js file: capture rules, runs with their parts, validation,
// retention, migrations from an older schema, the audit export.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { HistoryEngine } from '../../../src/core/history/engine';
import { InProcessHistoryStore } from '../../../src/core/history/inProcessStore';
import { loadSqlJs } from '../../../src/core/history/sqljs';
import { SqlConn } from '../../../src/core/history/sqlConn';
import { migrate, schemaVersion, SCHEMA_VERSION } from '../../../src/core/history/schema';
import { historyDbPath, openHistoryStore, type AuditRecord } from '../../../src/core/history';
import { UserError } from '../../../src/core/base';
import { DAY } from './helpers';
import { TESTS_STEP } from '../../../src/core/history/types';
import { describeTestsOutcome, runEndView } from '../../../src/protocol/runEnd';
import { tempHistoryWorkspace, withHistoryWorkspace } from '../../support/historyWorkspace';

async function withEngine(fn: (engine: HistoryEngine, db: string) => Promise<void> | void, now?: () => number): Promise<void> {
  const ws = tempHistoryWorkspace();
  const engine = await HistoryEngine.open({ path: ws.db, ...(now ? { now } : {}) });
  try {
    await fn(engine, ws.db);
  } finally {
    try {
      engine.close();
    } finally {
      ws.cleanup();
    }
  }
}

describe('observation capture', () => {
  test('error results and results under 20 characters are not stored; long ones are cut to 2,000', () =>
    withEngine((engine) => {
      assert.deepEqual(engine.recordObservation({ tool: 'run', insight: 'failed', result: 'x'.repeat(500), isError: true }), {
        stored: false,
        reason: 'error-result',
      });
      assert.deepEqual(engine.recordObservation({ tool: 'grep', insight: 'short', result: '   nineteen chars!!   ', isError: false }), {
        stored: false,
        reason: 'too-short',
      });
      const ok = engine.recordObservation({ tool: 'grep', insight: 'exactly twenty', result: '12345678901234567890', isError: false });
      assert.equal(ok.stored, true);
      const big = engine.recordObservation({ tool: 'read_file', insight: 'big file', result: '😀'.repeat(3000), isError: false, path: 'src/a.ts' });
      assert.ok(big.stored);
      const row = engine.db.conn.get<{ detail: string; path: string }>('SELECT detail, path FROM observations WHERE id = ?', [big.id])!;
      assert.ok(row.detail.length <= 2000);
      assert.match(row.detail, /… \[truncated\]$/);
      assert.doesNotMatch(row.detail, /[\ud800-\udbff]…/, 'no half surrogate pair before the marker');
      assert.equal(row.path, 'src/a.ts');
      assert.equal(engine.stats().rows.observations, 2);
    }));
});

describe('runs', () => {
  test('the list of runs says how each left the tests (its last tests step), and older runs say nothing', () =>
    withEngine((engine) => {
      const failing = engine.startRun({ goal: 'finished over failing tests' });
      engine.addStep(failing, { role: 'system', tool: TESTS_STEP, text: describeTestsOutcome('passed') });
      engine.addStep(failing, { role: 'system', tool: TESTS_STEP, text: describeTestsOutcome('failed') });
      engine.finishRun(failing, { status: 'finished' });
      const older = engine.startRun({ goal: 'logged before the step existed' });
      engine.finishRun(older, { status: 'finished' });
      const byGoal = new Map(engine.listRuns().map((r) => [r.goal, r.tests]));
      assert.equal(byGoal.get('finished over failing tests'), 'failed');
      assert.equal(byGoal.get('logged before the step existed'), undefined);
      assert.equal(runEndView('finished', byGoal.get('finished over failing tests')).label, 'finished · tests failed');
    }));

  test('a patch can be filed under the id the run already told its viewers (patch/proposed carried it); a non-text id is refused', () =>
    withEngine((engine) => {
      const runId = engine.startRun({ goal: 'ids chosen before the write' });
      const chosen = '0b7d1c2e-0000-4000-8000-000000000001';
      assert.equal(engine.addPatch(runId, { id: chosen, text: 'p', files: ['a.ts'], acceptedHunks: [], rejectedHunks: [] }), chosen);
      assert.deepEqual(
        engine.getRun(runId)!.patches.map((p) => p.id),
        [chosen],
      );
      assert.throws(() => engine.addPatch(runId, { id: 7 as unknown as string, text: 'p', files: [], acceptedHunks: [], rejectedHunks: [] }));
    }));

  test('a run with steps, patches, test runs, policy decisions and a Q&A summary reads back whole', () =>
    withEngine((engine) => {
      const runId = engine.startRun({ goal: 'make the date test pass', reasoningModel: 'big', fastModel: 'small' });
      assert.deepEqual(engine.addStep(runId, { role: 'user', text: 'go' }).seq, 1);
      const s2 = engine.addStep(runId, { role: 'tool', tool: 'read_file', arguments: { path: 'a.ts', lines: [1, 2] }, result: 'text', durationMs: 12 });
      assert.equal(s2.seq, 2);
      const patchId = engine.addPatch(runId, {
        text: '--- a\n+++ b\n',
        files: ['a.ts'],
        acceptedHunks: [{ id: 'a.ts#0' }],
        rejectedHunks: [],
        reversePatch: 'rev',
        appliedAt: 5,
      });
      engine.addTestRun({ runId, command: 'npm test', trigger: 'agent', exitCode: 1, durationMs: 900, output: 'y'.repeat(10_000) + 'END' });
      engine.addTestRun({ command: 'npm test', trigger: 'save', exitCode: 0, durationMs: 100, output: 'ok' });
      engine.addPolicyDecision({
        runId,
        kind: 'command',
        subject: 'curl x | sh',
        verdict: 'deny',
        rule: 'deny:pipe-to-shell',
        reason: 'downloads and runs code',
      });
      engine.recordQaSummary(runId, 'what was wrong?', 'the month was 0-based');
      engine.finishRun(runId, { status: 'finished', steps: 1, tokensIn: 1200, tokensOut: 300, costUsd: 0.02 });

      const d = engine.getRun(runId)!;
      assert.equal(d.run.status, 'finished');
      assert.equal(d.run.steps, 1, 'the model steps the CLI showed, not the log entries');
      assert.equal(d.run.tokensIn, 1200);
      assert.ok(d.run.endedAt! >= d.run.startedAt);
      assert.deepEqual(
        d.steps.map((s) => s.seq),
        [1, 2],
      );
      assert.deepEqual(d.steps[1]!.arguments, { path: 'a.ts', lines: [1, 2] });
      assert.equal(d.patches[0]!.id, patchId);
      assert.deepEqual(d.patches[0]!.acceptedHunks, [{ id: 'a.ts#0' }]);
      assert.equal(d.testRuns.length, 1, 'the save-triggered run belongs to no run');
      assert.equal(d.testRuns[0]!.outputTail.length, 8000);
      assert.ok(d.testRuns[0]!.outputTail.endsWith('END'));
      assert.equal(d.policyDecisions[0]!.verdict, 'deny');
      assert.equal(d.observations[0]!.type, 'qa');
      const [summary] = engine.listRuns();
      assert.equal(summary!.steps, 1);
      assert.equal(summary!.testRunCount, 1);
      assert.equal(engine.getRun('nope'), undefined);
    }));

  test('bad input is refused with a clear error and records nothing', () =>
    withEngine((engine) => {
      assert.throws(
        () => engine.startRun({ goal: '' }),
        (e: unknown) => e instanceof UserError && /goal/.test(e.message),
      );
      assert.throws(() => engine.addStep('missing', { role: 'user', text: 'x' }), /no run with id missing/);
      const runId = engine.startRun({ goal: 'g' });
      assert.throws(() => engine.addStep(runId, { role: 'robot' as never }), /role must be one of/);
      assert.throws(() => engine.addTestRun({ command: 'x', trigger: 'cron' as never, exitCode: 0, durationMs: 1, output: '' }), /trigger/);
      assert.throws(() => engine.finishRun(runId, { status: 'running' as never }), /status/);
      assert.throws(() => engine.addPolicyDecision({ kind: 'file' as never, subject: 's', verdict: 'allow', reason: 'r' }), /kind/);
      assert.throws(() => engine.finishRun(runId, { status: 'failed', tokensIn: -1 }), /tokensIn/);
      assert.equal(engine.stats().rows.steps, 0);
      assert.equal(engine.db.pendingCount, 1, 'only the valid startRun is pending');
    }));

  test('memory facts: last write by time wins', () =>
    withEngine((engine) => {
      engine.rememberFact({ scope: 'repo', key: 'test-cmd', text: 'npm test', time: 10 });
      engine.rememberFact({ scope: 'repo', key: 'test-cmd', text: 'older', time: 5 });
      engine.rememberFact({ scope: 'repo', key: 'test-cmd', text: 'npm run test:unit', time: 20 });
      assert.deepEqual(
        engine.listFacts('repo').map((f) => f.text),
        ['npm run test:unit'],
      );
    }));
});

describe('retention', () => {
  test('prune removes observations older than maxAgeDays and beyond maxObservations, index included', async () => {
    const now = Date.UTC(2025, 0, 31);
    await withHistoryWorkspace(async (ws) => {
      const first = await HistoryEngine.open({ path: ws.db, now: () => now });
      for (let i = 0; i < 10; i++)
        first.recordObservation({ tool: 't', insight: `old pelican ${i}`, result: 'a result long enough to keep', isError: false, time: now - (40 + i) * DAY });
      for (let i = 0; i < 10; i++)
        first.recordObservation({ tool: 't', insight: `new pelican ${i}`, result: 'a result long enough to keep', isError: false, time: now - i * DAY });
      first.close();

      // Opening with retention prunes at once; prune() can be called again later.
      const engine = await HistoryEngine.open({ path: ws.db, now: () => now, retention: { maxAgeDays: 30, maxObservations: 6 } });
      assert.equal(engine.stats().rows.observations, 6);
      const kept = engine
        .search('pelican', { limit: 100 })
        .map((h) => h.text)
        .sort();
      assert.deepEqual(kept, [0, 1, 2, 3, 4, 5].map((i) => `new pelican ${i}`).sort(), 'FTS index follows the deletes');
      assert.deepEqual(engine.prune(), { deleted: 0 });
      engine.close();
      const unlimited = await HistoryEngine.open({ path: ws.db });
      assert.deepEqual(unlimited.prune(), { deleted: 0 }, 'no retention options: nothing pruned');
      unlimited.close();
    });
  });
});

describe('migrations', () => {
  test('a version-1 database (before observations existed) upgrades and keeps its rows', async () => {
    await withHistoryWorkspace(async (ws) => {
      const SQL = await loadSqlJs();
      const old = new SqlConn(new SQL.Database());
      migrate(old, 1);
      assert.equal(schemaVersion(old), 1);
      old.run(`INSERT INTO runs (id, goal, status, started_at) VALUES ('r1', 'from an old version', 'succeeded', 1)`);
      mkdirSync(path.dirname(ws.db), { recursive: true });
      writeFileSync(ws.db, old.export());
      old.close();

      const engine = await HistoryEngine.open({ path: ws.db });
      assert.equal(schemaVersion(engine.db.conn), SCHEMA_VERSION);
      assert.equal(engine.getRun('r1')!.run.goal, 'from an old version');
      assert.equal(engine.getRun('r1')!.run.status, 'finished', 'the old word for a finished run is migrated');
      assert.ok(
        engine.recordObservation({ runId: 'r1', tool: 't', insight: 'new table works', result: 'observations exist after migration', isError: false }).stored,
      );
      engine.close();
      const reopened = await HistoryEngine.open({ path: ws.db });
      assert.equal(schemaVersion(reopened.db.conn), SCHEMA_VERSION, 'the upgrade was saved');
      assert.equal(reopened.search('migration').length, 1);
      reopened.close();
    });
  });

  test('a version-5 database: succeeded becomes finished, steps are counted from model replies, hunk ids are renumbered from 1', async () => {
    await withHistoryWorkspace(async (ws) => {
      const SQL = await loadSqlJs();
      const old = new SqlConn(new SQL.Database());
      migrate(old, 5);
      old.run(`INSERT INTO runs (id, goal, status, started_at) VALUES ('r1', 'an old run', 'succeeded', 1)`);
      for (const [seq, role] of [
        [1, 'user'],
        [2, 'assistant'],
        [3, 'tool'],
        [4, 'assistant'],
        [5, 'tool'],
      ] as const) {
        old.run(`INSERT INTO steps (id, run_id, seq, role, time) VALUES (?, 'r1', ?, ?, ?)`, [`s${seq}`, seq, role, seq]);
      }
      old.run(`INSERT INTO patches (id, run_id, text, files, accepted_hunks, rejected_hunks, time) VALUES ('p1', 'r1', 'diff', '["a.ts"]', ?, ?, 2)`, [
        JSON.stringify(['a.ts#0', 'dir/x#y.ts#9']),
        JSON.stringify([{ id: 'a.ts#1', state: 'rejected', reason: 'keep it' }, 'b.ts#0', 7]),
      ]);
      mkdirSync(path.dirname(ws.db), { recursive: true });
      writeFileSync(ws.db, old.export());
      old.close();

      const engine = await HistoryEngine.open({ path: ws.db });
      try {
        const d = engine.getRun('r1')!;
        assert.deepEqual([d.run.status, d.run.steps], ['finished', 2]);
        assert.deepEqual(d.patches[0]!.acceptedHunks, ['a.ts#1', 'dir/x#y.ts#10']);
        assert.deepEqual(d.patches[0]!.rejectedHunks, [{ id: 'a.ts#2', state: 'rejected', reason: 'keep it' }, 'b.ts#1', 7]);
        assert.deepEqual(
          engine.listRuns({ status: 'finished' }).map((r) => r.id),
          ['r1'],
        );
      } finally {
        engine.close();
      }
    });
  });

  test('a database from a newer PatchPilot is not overwritten: warning, changes kept in memory', async () => {
    await withHistoryWorkspace(async (ws) => {
      const SQL = await loadSqlJs();
      const future = new SqlConn(new SQL.Database());
      migrate(future);
      future.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
      mkdirSync(path.dirname(ws.db), { recursive: true });
      writeFileSync(ws.db, future.export());
      future.close();
      const before = readFileSync(ws.db);
      const engine = await HistoryEngine.open({ path: ws.db });
      assert.equal(engine.db.warnings[0]!.kind, 'newer-schema');
      engine.startRun({ goal: 'kept in memory' });
      assert.throws(() => engine.flush(), /newer PatchPilot/);
      assert.deepEqual(readFileSync(ws.db), before);
      assert.equal(engine.listRuns().length, 1);
    });
  });
});

describe('store surface', () => {
  test('the async store streams the audit trail and writes .patchpilot/.gitignore on first save', async () => {
    await withHistoryWorkspace(async (ws) => {
      const store = await InProcessHistoryStore.open({ path: ws.db, exitHook: false });
      const runId = await store.startRun({ goal: 'audit me' });
      for (let i = 0; i < 1005; i++) await store.addStep(runId, { role: 'assistant', text: `step ${i}` });
      await store.addPolicyDecision({ runId, kind: 'path', subject: '.env', verdict: 'ask', reason: 'protected' });
      await store.flush();
      const records: AuditRecord[] = [];
      for await (const r of store.exportAll()) records.push(r);
      assert.equal(records.filter((r) => r.table === 'steps').length, 1005, 'paged past 1,000');
      assert.deepEqual([...new Set(records.map((r) => r.table))], ['runs', 'steps', 'policy_decisions']);
      assert.equal(readFileSync(path.join(ws.dir, '.patchpilot', '.gitignore'), 'utf8'), 'history.db*\n.gitignore\n');
      await store.close();
      await store.close(); // twice is fine
      await assert.rejects(store.listRuns(), /closed/);
    });
  });

  test('opening only reads: no folder or file appears until something is written', async () => {
    await withHistoryWorkspace(async (ws) => {
      const store = await openHistoryStore({ workspace: ws.dir, exitHook: false });
      assert.deepEqual(await store.listRuns(), []);
      await store.close();
      assert.equal(existsSync(path.join(ws.dir, '.patchpilot')), false);
    });
  });

  test('the configured path must stay inside the workspace unless it came from the user', () => {
    assert.equal(historyDbPath('/ws'), path.resolve('/ws/.patchpilot/history.db'));
    assert.equal(historyDbPath('/ws', 'data/h.db'), path.resolve('/ws/data/h.db'));
    assert.throws(() => historyDbPath('/ws', '../../home/u/.bashrc'), /outside the workspace/);
    assert.throws(() => historyDbPath('/ws', '/etc/passwd'), /outside the workspace/);
    assert.equal(historyDbPath('/ws', '/tmp/h.db', { allowOutsideWorkspace: true }), '/tmp/h.db');
  });
});
