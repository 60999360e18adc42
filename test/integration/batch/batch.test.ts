// `patchpilot batch` with the built CLI: three goals (two folders and a git URL, each with its own
// scripted model server and settings) run with concurrency 2, their result events gathered into one
// table; the GitHub Actions matrix; one goal by --index and by JOB_COMPLETION_INDEX.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScriptedModelServer, type ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX, TEST_CMD } from '../../unit/orchestrator/harness';
import { gitInit } from '../../unit/tools/helpers';
import { call, runCli, skipWithoutBuild } from '../agent/support';

const fixing = (): ScriptedTurn[] => [
  { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
  // The pause makes the run last: the test sees whether runs overlapped.
  { reply: { delayMs: 2500, toolCalls: [call('finish', { summary: 'add() adds.' })] } },
];
const reading = (): ScriptedTurn[] => [{ reply: { delayMs: 2500, toolCalls: [call('read_file', { path: 'add.js' })] } }];

interface Fixture {
  dir: string;
  file: string;
  servers: ScriptedModelServer[];
  cleanup: () => Promise<void>;
}

/** Goals 0 and 1 fix add() in two folders; goal 2 clones a bare repository by URL and hits its step limit. */
async function fixture(): Promise<Fixture> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-batch-'));
  for (const name of ['api', 'web', 'origin']) {
    mkdirSync(path.join(dir, name));
    for (const [f, text] of Object.entries(BUGGY)) writeFileSync(path.join(dir, name, f), text);
    gitInit(path.join(dir, name));
  }
  execFileSync('git', ['clone', '-q', '--bare', path.join(dir, 'origin'), path.join(dir, 'lib.git')]);
  const servers = [await ScriptedModelServer.start(fixing()), await ScriptedModelServer.start(fixing()), await ScriptedModelServer.start(reading())];
  const model = (i: number) => `model: scripted-model, base-url: ${servers[i]!.baseUrl}`;
  const file = path.join(dir, 'goals.yml');
  writeFileSync(
    file,
    [
      'defaults:',
      '  approve: auto-edit',
      `  test-cmd: '${TEST_CMD}'`,
      'goals:',
      `  - { repo: ./api, goal: make add add, ${model(0)} }`,
      `  - { repo: web, goal: make add add in web, ${model(1)} }`,
      `  - { repo: 'file://${path.join(dir, 'lib.git')}', goal: look at add, max-steps: 1, ${model(2)} }`,
      '',
    ].join('\n'),
  );
  return { dir, file, servers, cleanup: async () => (await Promise.all(servers.map((s) => s.close())), rmSync(dir, { recursive: true, force: true })) };
}

const batch = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { command: 'batch', env });

describe('patchpilot batch', { skip: skipWithoutBuild }, () => {
  test('three goals with concurrency 2: one table from their result events; at most two at a time', { timeout: 240_000 }, async () => {
    const f = await fixture();
    try {
      const work = path.join(f.dir, 'work');
      const r = await batch([f.file, '--concurrency', '2', '--work-dir', work, '--events-dir', path.join(f.dir, 'events')]);
      assert.equal(r.code, 1, `goal 2 ran out of steps: not every goal succeeded\n${r.stdout}\n${r.stderr}`);
      const rows = r.stdout.trim().split('\n');
      assert.match(rows[0]!, /^#\s+repo\s+goal\s+status\s+tests\s+tokens\s+cost\s+exit$/);
      assert.match(rows[2]!, /^0\s+api\s+make add add\s+finished\s+passed\s+[\d,]+\s+-\s+0$/);
      assert.match(rows[3]!, /^1\s+web\s+make add add in web\s+finished\s+passed\s+[\d,]+\s+-\s+0$/);
      assert.match(rows[4]!, /^2\s+lib\s+look at add\s+limit\s+not-run\s+[\d,]+\s+-\s+6$/);
      assert.match(rows[5]!, /^\s+total\s+3 goals\s+[\d,]+\s+-$/);
      // The table's tokens are the result events' (kept in --events-dir).
      const result = (i: number) =>
        JSON.parse(
          readFileSync(path.join(f.dir, 'events', `item-${i}.jsonl`), 'utf8')
            .trim()
            .split('\n')
            .at(-1)!,
        );
      assert.equal(rows[2]!.split(/\s{2,}/)[5], result(0).tokens.toLocaleString('en-US'));
      assert.equal(result(2).conclusion, 'budget');
      // The fixes are in the folders; the URL was cloned into the work folder.
      for (const name of ['api', 'web']) assert.equal(readFileSync(path.join(f.dir, name, 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
      assert.ok(existsSync(path.join(work, '2-lib', 'add.js')));
      // Concurrency: goals 0 and 1 overlapped; goal 2 began only after one of them ended.
      const first = (i: number) => f.servers[i]!.chatRequests[0]!.receivedAt;
      const last = (i: number) => f.servers[i]!.chatRequests.at(-1)!.receivedAt;
      assert.ok(first(1) < last(0) && first(0) < last(1), 'goals 0 and 1 ran at the same time');
      assert.ok(first(2) >= Math.min(last(0), last(1)) + 2000, 'goal 2 waited for a free slot');
    } finally {
      await f.cleanup();
    }
  });

  test('--matrix prints a GitHub Actions matrix of the goals', async () => {
    const f = await fixture();
    try {
      const r = await batch([f.file, '--matrix']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim().split('\n').length, 1, 'one line, for $GITHUB_OUTPUT');
      assert.deepEqual(JSON.parse(r.stdout), {
        include: [
          { index: 0, repo: 'api', goal: 'make add add' },
          { index: 1, repo: 'web', goal: 'make add add in web' },
          { index: 2, repo: `file://${path.join(f.dir, 'lib.git')}`, goal: 'look at add' },
        ],
      });
      assert.ok(
        f.servers.every((s) => s.chatRequests.length === 0),
        'nothing ran',
      );
    } finally {
      await f.cleanup();
    }
  });

  test('--index N and JOB_COMPLETION_INDEX run that goal alone and exit with its code', { timeout: 120_000 }, async () => {
    const f = await fixture();
    try {
      const one = await batch([f.file, '--index', '1', '--json']);
      assert.equal(one.code, 0, one.stderr);
      const [row] = JSON.parse(one.stdout);
      assert.deepEqual([row.index, row.goal, row.result.type, row.result.status, row.result.tests], [1, 'make add add in web', 'result', 'finished', 'passed']);
      const job = await batch([f.file, '--work-dir', path.join(f.dir, 'work')], { JOB_COMPLETION_INDEX: '2' });
      assert.equal(job.code, 6, job.stderr);
      assert.match(job.stdout, /^2\s+lib\s+look at add\s+limit/m);
      assert.deepEqual(
        f.servers.map((s) => s.chatRequests.length > 0),
        [false, true, true],
      );
      const bad = await batch([f.file, '--index', '3']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--index must be a whole number from 0 to 2, not '3'/);
    } finally {
      await f.cleanup();
    }
  });

  test('a bad file: every problem named, exit 2, nothing run', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-batch-bad-'));
    try {
      const file = path.join(dir, 'goals.json');
      writeFileSync(
        file,
        JSON.stringify({
          goals: [
            { repo: '.', goal: '' },
            { repo: '.', goal: 'x', 'max-step': 3, 'trust-workspace': 'yes' },
          ],
        }),
      );
      const r = await batch([file]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /goals\[0\]\.goal must be a non-empty text/);
      assert.match(r.stderr, /goals\[1\]: unknown setting "max-step"/);
      assert.match(r.stderr, /goals\[1\]\.trust-workspace must be true or false/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
