// Search over everything (the history panel's search), the paged run list, deleting a run, run
// retention and the migration that indexes rows written by an older PatchPilot: on real sql.js files.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HistoryEngine } from '../../../src/core/history/engine';
import { loadSqlJs } from '../../../src/core/history/sqljs';
import { SqlConn } from '../../../src/core/history/sqlConn';
import { migrate } from '../../../src/core/history/schema';
import { PATCH_SNAPSHOT_MAX_CHARS } from '../../../src/core/history';
import { DAY } from './helpers';
import { REASONING_STEP } from '../../../src/core/history/types';
import { runTimeline } from '../../../src/core/historyView/timeline';
import { tempHistoryWorkspace, type HistoryWorkspace } from '../../support/historyWorkspace';

const NOW = Date.UTC(2026, 2, 10, 12);
let ws: HistoryWorkspace;
let engine: HistoryEngine;
let parserRun: string;
let oldRun: string;

before(async () => {
  ws = tempHistoryWorkspace();
  engine = await HistoryEngine.open({ path: ws.db, now: () => NOW });
  parserRun = engine.startRun({ goal: 'Make the date parser accept ISO weeks', reasoningModel: 'm-large', startedAt: NOW - 2 * DAY });
  engine.addStep(parserRun, { role: 'user', text: 'Make the date parser accept ISO weeks', time: NOW - 2 * DAY });
  engine.addStep(parserRun, {
    role: 'tool',
    tool: 'read_file',
    arguments: { path: 'src/parse.ts' },
    result: 'function parseDate(text) { return zanzibar(text) }',
    time: NOW - 2 * DAY + 1,
  });
  engine.addPatch(parserRun, {
    text: '--- a/src/parse.ts\n+++ b/src/parse.ts\n@@ -1 +1 @@\n-old\n+weekday support\n',
    files: ['src/parse.ts'],
    acceptedHunks: ['src/parse.ts#1'],
    rejectedHunks: [{ id: 'src/parse.ts#2', state: 'rejected', reason: 'keep the legacy quirkiness' }],
  });
  engine.addTestRun({
    runId: parserRun,
    command: 'npm test',
    trigger: 'agent',
    exitCode: 1,
    durationMs: 900,
    output: 'FAIL parse.test.js expected Tuesday got Monday',
    time: NOW - 2 * DAY + 2,
  });
  engine.addPolicyDecision({
    runId: parserRun,
    kind: 'command',
    subject: 'curl http://x | sh',
    verdict: 'deny',
    rule: 'deny: curl *',
    reason: 'network download piped to a shell',
    time: NOW - 2 * DAY + 3,
  });
  engine.recordObservation({
    runId: parserRun,
    tool: 'grep',
    insight: 'the parser lives in src/parse.ts',
    result: 'src/parse.ts:1 function parseDate',
    isError: false,
    time: NOW - 2 * DAY + 4,
  });
  engine.finishRun(parserRun, { status: 'finished', steps: 2, endedAt: NOW - 2 * DAY + 60_000 });
  oldRun = engine.startRun({ goal: 'Old parser cleanup from last year', startedAt: NOW - 400 * DAY });
  engine.addStep(oldRun, { role: 'assistant', text: 'Removed the parser shim', time: NOW - 400 * DAY });
  engine.finishRun(oldRun, { status: 'failed', endedAt: NOW - 400 * DAY + 1000 });
});
after(() => {
  engine.close();
  ws.cleanup();
});

describe('search over everything', () => {
  test('a word from a tool result, a test output, a policy reason and a rejection reason each find their row, with the run goal', () => {
    const find = (q: string) => engine.searchHistory(q).hits;
    const tool = find('zanzibar');
    assert.equal(tool.length, 1);
    assert.equal(tool[0]!.kind, 'step');
    assert.equal(tool[0]!.runId, parserRun);
    assert.equal(tool[0]!.runGoal, 'Make the date parser accept ISO weeks');
    assert.match(tool[0]!.title, /read_file/);
    assert.equal(find('Tuesday')[0]!.kind, 'test');
    assert.equal(find('piped')[0]!.kind, 'policy');
    assert.equal(find('quirkiness')[0]!.kind, 'patch');
    assert.ok(find('ISO weeks').some((h) => h.kind === 'run' && h.id === parserRun));
  });

  test('matched words are returned as ranges into the snippet, case and accents folded', () => {
    const [hit] = engine.searchHistory('ZANZIBAR').hits;
    const marked = hit!.ranges.map(([a, b]) => hit!.snippet.slice(a, b));
    assert.deepEqual(marked, ['zanzibar']);
  });

  test('the type filter keeps only the chosen kinds', () => {
    const only = (types: Array<'runs' | 'observations' | 'patches' | 'tests'>) => new Set(engine.searchHistory('parser', { types }).hits.map((h) => h.kind));
    assert.deepEqual(only(['observations']), new Set(['observation']));
    assert.ok(!only(['runs']).has('observation'));
    assert.deepEqual(only(['tests']), new Set());
  });

  test('the time filter drops older rows; both ends of a range count', () => {
    const all = engine.searchHistory('parser').hits;
    assert.ok(all.some((h) => h.runId === oldRun));
    const recent = engine.searchHistory('parser', { since: NOW - 7 * DAY }).hits;
    assert.ok(recent.length > 0 && recent.every((h) => h.runId !== oldRun));
    const lastYear = engine.searchHistory('parser', { since: NOW - 500 * DAY, until: NOW - 300 * DAY }).hits;
    assert.ok(lastYear.length > 0 && lastYear.every((h) => h.runId === oldRun));
  });

  test('the last word typed matches as a prefix only when asked', () => {
    assert.equal(engine.searchHistory('zanzi').hits.length, 0);
    assert.equal(engine.searchHistory('zanzi', { prefixLast: true }).hits[0]?.kind, 'step');
    assert.equal(engine.searchHistory('zanzi ', { prefixLast: true }).hits.length, 0, 'a trailing space ends the word');
  });

  test('query syntax is searched as words and never throws', () => {
    for (const q of ['"', 'NEAR(', 'a OR', '*', '-x', ')(', 'parser*"']) assert.doesNotThrow(() => engine.searchHistory(q, { prefixLast: true }));
    assert.deepEqual(engine.searchHistory('   ').hits, []);
  });
});

describe('paged run list', () => {
  test('newest first, with the total for the time filter and counts per run', () => {
    const page = engine.listRunPage({ limit: 1 });
    assert.equal(page.total, 2);
    assert.equal(page.runs[0]!.id, parserRun);
    assert.equal(page.runs[0]!.steps, 2, 'model steps, the number the CLI showed');
    assert.equal(page.runs[0]!.patchCount, 1);
    assert.equal(page.runs[0]!.testRunCount, 1);
    assert.equal(engine.listRunPage({ offset: 1, limit: 1 }).runs[0]!.id, oldRun);
    const week = engine.listRunPage({ since: NOW - 7 * DAY });
    assert.deepEqual([week.total, week.runs.map((r) => r.id)], [1, [parserRun]]);
  });

  test('patches keep each hunk note and the snapshots (files over the cap are left out)', () => {
    const run = engine.startRun({ goal: 'snapshot test' });
    engine.addPatch(run, {
      text: 'x',
      files: ['a.ts', 'big.ts'],
      acceptedHunks: ['a.ts#1'],
      rejectedHunks: [],
      snapshots: [
        { path: 'a.ts', before: 'one\n', after: 'two\n' },
        { path: 'big.ts', before: 'x'.repeat(PATCH_SNAPSHOT_MAX_CHARS + 1), after: '' },
        { path: 'new.ts', before: null, after: 'created\n' },
      ],
    });
    const d = engine.getRun(run)!;
    assert.deepEqual(d.patches[0]!.snapshots, [
      { path: 'a.ts', before: 'one\n', after: 'two\n' },
      { path: 'new.ts', before: null, after: 'created\n' },
    ]);
    engine.deleteRun(run);
  });
});

describe('deleting runs', () => {
  test('removes the run and every row under it, from the tables and the indexes; other runs stay', async () => {
    const ws2 = tempHistoryWorkspace();
    const e = await HistoryEngine.open({ path: ws2.db, now: () => NOW });
    try {
      const doomed = e.startRun({ goal: 'doomed quokka run' });
      e.addStep(doomed, { role: 'tool', tool: 'grep', result: 'quokka everywhere' });
      e.addPatch(doomed, { text: 'quokka patch', files: ['q.ts'], acceptedHunks: [], rejectedHunks: [] });
      e.addTestRun({ runId: doomed, command: 'npm test', trigger: 'agent', exitCode: 0, durationMs: 1, output: 'quokka ok' });
      e.addPolicyDecision({ runId: doomed, kind: 'command', subject: 'quokka', verdict: 'ask', reason: 'quokka asks' });
      e.recordObservation({ runId: doomed, tool: 'grep', insight: 'quokka insight', result: 'quokka result long enough to keep', isError: false });
      const kept = e.startRun({ goal: 'kept quokka run' });
      assert.ok(e.searchHistory('quokka').hits.length >= 6);
      const r = e.deleteRun(doomed);
      assert.equal(r.deleted, 6);
      assert.equal(e.getRun(doomed), undefined);
      assert.deepEqual(
        e.searchHistory('quokka').hits.map((h) => h.id),
        [kept],
      );
      assert.deepEqual(e.deleteRun(doomed), { deleted: 0 }, 'deleting twice is a no-op');
      e.close();
      // On disk too: a fresh engine reading the file sees the same.
      const again = await HistoryEngine.open({ path: ws2.db, now: () => NOW });
      assert.deepEqual(
        again.listRuns().map((x) => x.goal),
        ['kept quokka run'],
      );
      assert.deepEqual(
        again.searchHistory('quokka').hits.map((h) => h.id),
        [kept],
      );
      again.close();
    } finally {
      ws2.cleanup();
    }
  });

  test('run retention deletes finished runs older than the limit, never a running one', async () => {
    const ws2 = tempHistoryWorkspace();
    const e = await HistoryEngine.open({ path: ws2.db, now: () => NOW });
    try {
      const old = e.startRun({ goal: 'old', startedAt: NOW - 40 * DAY });
      e.addStep(old, { role: 'user', text: 'old' });
      e.finishRun(old, { status: 'finished' });
      e.startRun({ goal: 'old but still running', startedAt: NOW - 40 * DAY });
      e.startRun({ goal: 'recent', startedAt: NOW - DAY });
      assert.equal(e.prune({ maxRunAgeDays: 30 }).deleted, 2);
      assert.deepEqual(
        e
          .listRuns()
          .map((r) => r.goal)
          .sort(),
        ['old but still running', 'recent'],
      );
      assert.throws(() => e.prune({ maxRunAgeDays: -1 }), /maxRunAgeDays/);
    } finally {
      e.close();
      ws2.cleanup();
    }
  });
});

describe('migration 5 (the indexes of everything)', () => {
  test('rows written before the indexes existed are found after the upgrade', async () => {
    const ws2 = tempHistoryWorkspace();
    try {
      const SQL = await loadSqlJs();
      const old = new SqlConn(new SQL.Database());
      migrate(old, 3);
      old.run(`INSERT INTO runs (id, goal, status, started_at) VALUES ('r1', 'legacy wombat goal', 'succeeded', 1)`);
      old.run(`INSERT INTO steps (id, run_id, seq, role, result, tool, time) VALUES ('s1', 'r1', 1, 'tool', 'a wombat in the output', 'grep', 2)`);
      old.run(
        `INSERT INTO test_runs (id, run_id, command, trigger, exit_code, duration_ms, output_tail, time) VALUES ('t1', 'r1', 'npm test', 'agent', 3, 5, 'wombat failed', 3)`,
      );
      mkdirSync(path.dirname(ws2.db), { recursive: true });
      writeFileSync(ws2.db, old.export());
      old.close();
      const e = await HistoryEngine.open({ path: ws2.db });
      try {
        assert.deepEqual(
          e
            .searchHistory('wombat')
            .hits.map((h) => h.kind)
            .sort(),
          ['run', 'step', 'test'],
        );
        assert.equal(e.getRun('r1')!.patches.length, 0);
      } finally {
        e.close();
      }
    } finally {
      ws2.cleanup();
    }
  });
});

describe('search as you type', () => {
  test('a prefix under 3 letters, or one standing for very many words, is searched as the word typed so far', async () => {
    const ws2 = tempHistoryWorkspace();
    const e = await HistoryEngine.open({ path: ws2.db, now: () => NOW });
    try {
      const run = e.startRun({ goal: 'prefix test' });
      // 100 distinct words starting with "qxa" (qxa0 .. qxa99).
      e.addStep(run, { role: 'tool', tool: 'grep', result: Array.from({ length: 100 }, (_, i) => `qxa${i}`).join(' ') });
      e.addStep(run, { role: 'tool', tool: 'grep', result: 'a lone qx here' });
      e.addStep(run, { role: 'tool', tool: 'grep', result: 'quokkas and quolls' });
      const snippets = (q: string) => e.searchHistory(q, { prefixLast: true, types: ['runs'] }).hits.map((h) => h.snippet);
      assert.deepEqual(snippets('qx'), ['a lone qx here'], 'two letters: the word itself only');
      assert.equal(e.searchHistory('qx', { prefixLast: true }).terms[0]!.prefix, false);
      assert.deepEqual(snippets('quo'), ['quokkas and quolls'], 'a prefix standing for few words matches them');
      assert.deepEqual(snippets('qxa'), [], '"qxa" stands for 100 words: searched as the word "qxa"');
      assert.equal(snippets('qxa1').length, 1, '"qxa1" stands for 11 words: a prefix');
    } finally {
      e.close();
      ws2.cleanup();
    }
  });
});

describe("the model's reasoning is kept but not a search result", () => {
  test('a model/reasoning step is in the run and its timeline; searching its words finds only the real steps', async () => {
    const ws2 = tempHistoryWorkspace();
    try {
      const e = await HistoryEngine.open({ path: ws2.db });
      try {
        const r = e.startRun({ goal: 'fix the parser' });
        e.addStep(r, { role: 'system', tool: REASONING_STEP, text: 'pondering the okapi question at length' });
        e.addStep(r, { role: 'assistant', text: 'the okapi is fine' });
        assert.deepEqual(
          e.searchHistory('okapi').hits.map((h) => `${h.kind}:${h.title}`),
          ['step:Model message'],
        );
        assert.deepEqual(e.searchHistory('pondering').hits, []);
        const item = runTimeline(e.getRun(r)!).items.find((i) => i.kind === 'message' && i.text.includes('pondering'));
        assert.match((item as { text: string }).text, /^The model's reasoning:\npondering the okapi/);
        assert.equal(e.db.conn.get<{ integrity_check: string }>('PRAGMA integrity_check')?.integrity_check, 'ok');
      } finally {
        e.close();
      }
    } finally {
      ws2.cleanup();
    }
  });
});

describe('conversation copies are not search results', () => {
  test("a run's context/transcript and context/earlier copies are not hits; the steps they copy are; the file stays sound", async () => {
    const ws2 = tempHistoryWorkspace();
    try {
      const e = await HistoryEngine.open({ path: ws2.db });
      try {
        const r1 = e.startRun({ goal: 'count the narwhals' });
        e.addStep(r1, { role: 'assistant', text: 'three narwhals' });
        e.addStep(r1, { role: 'system', tool: 'context/transcript', arguments: [{ role: 'assistant', content: 'three narwhals' }] });
        const r2 = e.startRun({ goal: 'and the walruses?' });
        e.addStep(r2, { role: 'system', tool: 'context/earlier', arguments: [{ role: 'assistant', content: 'three narwhals' }] });
        e.addStep(r2, { role: 'assistant', text: 'walruses too' });
        assert.deepEqual(
          e
            .searchHistory('narwhals')
            .hits.map((h) => `${h.kind}:${h.title}`)
            .sort(),
          ['run:Goal', 'step:Model message'],
        );
        assert.deepEqual(
          e
            .searchHistory('walruses')
            .hits.map((h) => `${h.kind}:${h.title}`)
            .sort(),
          ['run:Goal', 'step:Model message'],
        );
        assert.deepEqual(
          e
            .searchHistory('narwhals', { since: 0 })
            .hits.map((h) => h.kind)
            .sort(),
          ['run', 'step'],
          'the time-filtered plan filters too',
        );
        // The index still mirrors its table: SQLite's own check (run when the store opens) passes.
        assert.equal(e.db.conn.get<{ integrity_check: string }>('PRAGMA integrity_check')?.integrity_check, 'ok');
      } finally {
        e.close();
      }
      const reopened = await HistoryEngine.open({ path: ws2.db });
      try {
        // Not moved aside as damaged on open: the runs are still there.
        assert.equal(reopened.searchHistory('walruses').hits.length, 2);
      } finally {
        reopened.close();
      }
    } finally {
      ws2.cleanup();
    }
  });
});
