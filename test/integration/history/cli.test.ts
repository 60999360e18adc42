// `patchpilot history ...` end to end: the built binary (dist/cli.js, its worker and wasm) against a real database file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { HistoryEngine } from '../../../src/core/history/engine';
import { tempHistoryWorkspace, type HistoryWorkspace } from '../../support/historyWorkspace';

const cli = path.resolve(__dirname, '../../../dist/cli.js');
const DAY = 86_400_000;
let ws: HistoryWorkspace;
let runA: string;
let runB: string;

function history(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'history', ...args, '--cwd', ws.dir], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

before(async () => {
  assert.ok(existsSync(cli), 'run npm run build first');
  ws = tempHistoryWorkspace();
  const now = Date.now();
  const engine = await HistoryEngine.open({ path: ws.db });
  runA = engine.startRun({ goal: 'fix the flaky date test', reasoningModel: 'big', startedAt: now - 2 * DAY });
  engine.addStep(runA, { role: 'tool', tool: 'read_file', arguments: { path: 'src/date.ts' }, result: 'export function parse() {}' });
  engine.addTestRun({ runId: runA, command: 'npm test', trigger: 'agent', exitCode: 0, durationMs: 1234, output: 'all green' });
  engine.addPolicyDecision({ runId: runA, kind: 'command', subject: 'curl x | sh', verdict: 'deny', rule: 'deny:pipe', reason: 'runs downloaded code' });
  engine.recordObservation({
    runId: runA,
    tool: 'grep',
    insight: 'timezone handling lives in src/date.ts',
    result: 'src/date.ts:40 const offset = tz()',
    isError: false,
    time: now - 2 * DAY,
  });
  engine.finishRun(runA, { status: 'finished', steps: 3, tokensIn: 10, tokensOut: 20, costUsd: 0.5 });
  runB = engine.startRun({ goal: 'old run about timezone', startedAt: now - 30 * DAY });
  engine.recordObservation({
    runId: runB,
    tool: 'grep',
    insight: 'timezone database is vendored',
    result: 'vendor/tz/ holds the zone files for tests',
    isError: false,
    time: now - 30 * DAY,
  });
  engine.close();
});
after(() => ws.cleanup());

describe('patchpilot history', () => {
  test('list: human and --json, newest first', () => {
    const human = history('list');
    assert.equal(human.code, 0, human.err);
    assert.match(human.out, new RegExp(`^${runA}\\s+finished .* 3 steps  fix the flaky date test`, 'm'));
    const json = history('list', '--json');
    assert.deepEqual(
      JSON.parse(json.out).map((r: { id: string }) => r.id),
      [runA, runB],
    );
  });

  test('show: full id, unique prefix, unknown id (exit 1)', () => {
    const full = history('show', runA, '--json');
    assert.equal(full.code, 0, full.err);
    const d = JSON.parse(full.out);
    assert.equal(d.steps[0].tool, 'read_file');
    assert.equal(d.testRuns[0].command, 'npm test');
    assert.equal(d.policyDecisions[0].verdict, 'deny');
    const short = history('show', runA.slice(0, 8));
    assert.equal(short.code, 0, short.err);
    assert.match(short.out, /goal: +fix the flaky date test/);
    assert.match(short.out, /deny +command curl x \| sh/);
    const missing = history('show', 'no-such-run');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no run with id no-such-run/);
  });

  test('search: ranked hits, --days filter, hostile text, bad --days is a usage error', () => {
    const all = JSON.parse(history('search', 'timezone', '--json').out);
    assert.equal(all.length, 2);
    const recent = JSON.parse(history('search', 'timezone', '--days', '7', '--json').out);
    assert.deepEqual(
      recent.map((h: { runId: string }) => h.runId),
      [runA],
    );
    const hostile = history('search', 'timezone" OR (');
    assert.equal(hostile.code, 0, hostile.err);
    assert.match(hostile.out, /timezone handling lives in src\/date\.ts/);
    const bad = history('search', 'x', '--days', 'soon');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--days must be a whole number/);
  });

  test('export: json document and jsonl records', () => {
    const json = history('export');
    assert.equal(json.code, 0, json.err);
    const doc = JSON.parse(json.out);
    assert.equal(doc.tables.runs.length, 2);
    assert.equal(doc.tables.observations.length, 2);
    assert.equal(doc.tables.policy_decisions.length, 1);
    const lines = history('export', '--format', 'jsonl')
      .out.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 2 + 1 + 1 + 2 + 1);
    assert.deepEqual(lines[0].table, 'runs');
    assert.equal(history('export', '--format', 'xml').code, 2);
  });

  test('usage errors exit 2', () => {
    assert.equal(history('frobnicate').code, 2);
    assert.equal(history('list', '--bogus').code, 2);
    assert.equal(history('show').code, 2);
    const trailing = history('list', '--json', '--verbose');
    assert.equal(trailing.code, 2);
    assert.match(trailing.err, /unknown option --verbose/);
    assert.match(history('list', '--limit').err, /--limit needs a value/);
  });

  test('list --status: the words patchpilot run ends with; a word outside them is a usage error, not an empty list', () => {
    assert.deepEqual(
      JSON.parse(history('list', '--status', 'finished', '--json').out).map((r: { id: string }) => r.id),
      [runA],
    );
    assert.deepEqual(
      JSON.parse(history('list', '--status', 'running', '--json').out).map((r: { id: string }) => r.id),
      [runB],
    );
    assert.match(history('list', '--status', 'limit').out, /^no limit runs recorded$/m);
    for (const word of ['succeeded', 'done', 'FINISHED']) {
      const r = history('list', '--status', word);
      assert.equal(r.code, 2, word);
      assert.match(r.err, /--status must be one of running, finished, limit, failed, blocked, cancelled, interrupted/);
    }
  });

  test('a damaged database without backup: warning on stderr, moved aside, command still works', () => {
    const copy = tempHistoryWorkspace();
    try {
      const r0 = spawnSync(process.execPath, [cli, 'history', 'list', '--cwd', ws.dir], { encoding: 'utf8' });
      assert.equal(r0.status, 0);
      // Give the copy a damaged main file and no backup.
      mkdirSync(path.dirname(copy.db), { recursive: true });
      writeFileSync(copy.db, 'this is not sqlite');
      const r = spawnSync(process.execPath, [cli, 'history', 'list', '--cwd', copy.dir], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /warning: .*not a SQLite database.*moved to/s);
      assert.match(r.stdout, /no runs recorded/);
      assert.equal(readdirSync(path.dirname(copy.db)).filter((n) => n.includes('corrupt')).length, 1);
    } finally {
      copy.cleanup();
    }
  });
});
