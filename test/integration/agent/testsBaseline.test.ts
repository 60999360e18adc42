// End to end: `patchpilot run` judges the tests against the baseline it records before the first
// edit. A test that failed before the run, named in the finish, does not refuse it and ends the run as
// "no new test failures ... 1 pre-existing failure" (exit 3); a test that fails once is rerun and
// counted flaky; run_tests aimed at one file runs only that file. After an edit only the tests of the
// edited code run; the whole suite runs once before the finish stands.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo } from './support';

const NODE_TEST = { ...BUGGY, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) };
/** A test that fails whatever the change: broken before the run began. */
const LEGACY = {
  'legacy.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\ntest('legacy parser', () => assert.equal('a,b'.split(';').length, 2));\n",
};
/**
 * A test that fails only on its second run in this workspace (a load-dependent timeout, say): the
 * baseline is its first run, the tests after the edit its second, their rerun its third.
 */
const FLAKY = {
  'flaky.test.js': `const { test } = require('node:test');
const fs = require('node:fs');
// In the workspace: a sandbox may give each run its own /tmp.
const counter = require('node:path').join(__dirname, '.runs');
const n = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 0) + 1;
fs.writeFileSync(counter, String(n));
test('slow io', () => { if (n === 2) throw new Error('timed out after 2000 ms'); });
`,
};
/** A suite slow enough that the model's first replies come while it runs. */
const SLOW = {
  'slow.test.js': "require('node:test')('slow', () => new Promise((resolve) => setTimeout(resolve, 3000)));\n",
};
/** Slower still, and it leaves a mark when it ends: a killed baseline never does. */
const SLOW4 = {
  // Writes its pid, then runs a minute: only a kill ends it before the run would have had to wait it out.
  'slow.test.js':
    "const fs = require('node:fs');\nconst path = require('node:path');\nfs.writeFileSync(path.join(__dirname, '.slow-pid'), String(process.pid));\nrequire('node:test')('slow', () => new Promise((resolve) => setTimeout(() => { fs.writeFileSync(path.join(__dirname, '.slow-done'), 'x'); resolve(); }, 60000)));\n",
};
const model = (server: { baseUrl: string }) => ['--base-url', server.baseUrl, '--model', 'scripted-model'];
const run = (root: string, server: { baseUrl: string }, json = true) =>
  runCli(['--goal', 'fix add', '--workspace', root, '--approve', 'auto-edit', ...model(server), ...(json ? ['--json'] : [])]);

describe('patchpilot run: tests against the baseline', { skip: skipWithoutBuild }, () => {
  test('a pre-existing failing test and a correct fix: the finish stands, "1 pre-existing failure (legacy parser)", exit 3', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      {
        reply: { toolCalls: [call('finish', { summary: 'Fixed add(); the legacy parser test failed before this run and is not about add().' })] },
        // After the edit only add.test.js runs (it requires add.js); the whole suite runs before the finish stands.
        expect: { lastMessageContains: 'tests passed (only the tests of the edited code: add.test.js' },
        // The baseline ran unseen before the edit: its one line ends the edit's result.
        check: ({ body }) => {
          const last = (body.messages as { content?: unknown }[]).at(-1)?.content;
          const line = /\n\nBefore your changes \(the whole suite, run once before your first edit, [\d.]+ s\): 2 of 2 tests failed: (.+)\. What failed/.exec(
            String(last),
          );
          if (!line || !/adds/.test(line[1]!) || !/legacy parser/.test(line[1]!)) return `no baseline line in the edit's result: ${String(last).slice(-600)}`;
        },
      },
    ];
    const script = () => turns.map((t) => ({ ...t }));
    await withRepo(
      script(),
      async (root, server) => {
        const r = await run(root, server);
        assert.deepEqual(server.mismatches, [], r.stdout.slice(-4000));
        assert.equal(r.code, 3, r.stderr);
        const ev = events(r.stdout);
        assert.ok(!ev.some((e) => e.type === 'model/notice' && e.kind === 'finish-refused'), 'an honest finish is not refused');
        const finished = ev.at(-1)!;
        assert.deepEqual([finished.status, finished.tests, finished.testFailures], ['finished', 'known-failures', { preExisting: ['legacy parser'] }]);
      },
      { ...NODE_TEST, ...LEGACY },
    );
    await withRepo(
      script(),
      async (root, server) => {
        const human = await run(root, server, false);
        assert.equal(human.code, 3, human.stderr);
        assert.match(
          human.stderr,
          /patchpilot: finished after 2 steps: the model called finish\npatchpilot: no new test failures after the last edit; 1 pre-existing failure \(legacy parser\)/,
        );
      },
      { ...NODE_TEST, ...LEGACY },
    );
  });

  test('a test that fails once after the edit is rerun, passes, and counts as flaky', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      {
        reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] },
        expect: { lastMessageContains: 'only the tests of the edited code: add.test.js' },
      },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await run(root, server);
        assert.deepEqual(server.mismatches, [], r.stdout.slice(-4000));
        assert.equal(r.code, 3, r.stderr);
        const ev = events(r.stdout);
        const commands = ev.filter((e) => e.type === 'test/started' && !e.note).map((e) => e.command as string);
        // The baseline (no rerun there), add.test.js after the edit, the whole suite before the finish, the rerun of slow io alone.
        assert.equal(commands.length, 4, JSON.stringify(commands));
        assert.equal(commands[1], 'npm test -- add.test.js');
        assert.equal(commands[2], 'npm test');
        assert.match(commands[3]!, /^npm test -- \S*flaky\.test\.js$/);
        assert.deepEqual(ev.at(-1)!.testFailures, { flaky: ['slow io'] });
      },
      { ...NODE_TEST, ...FLAKY },
    );
  });

  test('run_tests with files runs only those files, after the baseline (one test run in the tree at a time)', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('run_tests', { files: ['add.test.js'] })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Looked.' })] }, expect: { lastMessageContains: 'narrowed run' } },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await run(root, server);
        assert.deepEqual(server.mismatches, [], r.stdout.slice(-4000));
        const ev = events(r.stdout);
        const started = ev.filter((e) => e.type === 'test/started' && !e.note).map((e) => e.command);
        assert.deepEqual(started, ['npm test', 'npm test -- add.test.js']);
        const finished = ev.filter((e) => e.type === 'test/finished').at(-1)!;
        assert.match(String(finished.summary), /node: 0 passed, 1 failed\n {2}FAIL adds/);
        assert.doesNotMatch(String(finished.summary), /legacy parser/);
      },
      { ...NODE_TEST, ...LEGACY },
    );
  });

  test('the baseline starts with the run: reads go on meanwhile, the first edit waits for it and says so', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] } },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await run(root, server);
        assert.deepEqual(server.mismatches, [], r.stdout.slice(-4000));
        const ev = events(r.stdout);
        const at = (pred: (e: (typeof ev)[number]) => boolean) => ev.findIndex(pred);
        const baselineStarted = at((e) => e.type === 'test/started' && !e.note);
        const read = at((e) => e.type === 'tool/finished' && e.name === 'read_file');
        const edit = at((e) => e.type === 'tool/started' && e.name === 'propose_patch');
        const waiting = at(
          (e) => e.type === 'test/started' && /^waiting for the baseline test run \(started with the run, \d+ s so far\)$/.test(String(e.note)),
        );
        const baselineFinished = at((e) => e.type === 'test/finished');
        const applied = at((e) => e.type === 'patch/applied');
        // The read came back while the slow suite still ran; the edit's request came before it ended, and the edit waited, saying so.
        assert.ok(baselineStarted >= 0 && baselineStarted < edit, `baseline at ${baselineStarted}, edit at ${edit}`);
        assert.ok(read < baselineFinished, `the read waited for the baseline: read ${read}, baseline finished ${baselineFinished}`);
        assert.ok(edit < waiting && waiting < baselineFinished && baselineFinished < applied, JSON.stringify({ edit, waiting, baselineFinished, applied }));
        assert.equal(ev.at(-1)!.status, 'finished');
      },
      { ...NODE_TEST, ...SLOW },
    );
    // The same run in the terminal: the wait is one line.
    await withRepo(
      turns.map((t) => ({ ...t })),
      async (root, server) => {
        const human = await run(root, server, false);
        assert.match(human.stderr + human.stdout, /\n {2}tests: waiting for the baseline test run \(started with the run, \d+ s so far\)\n/);
      },
      { ...NODE_TEST, ...SLOW },
    );
  });

  test('a run that never edits does not wait for the baseline at its end: it is killed', async () => {
    const turns: ScriptedTurn[] = [{ reply: { toolCalls: [call('finish', { summary: 'Nothing to change.' })] } }];
    await withRepo(
      turns,
      async (root, server) => {
        const began = Date.now();
        const r = await run(root, server);
        const took = Date.now() - began;
        assert.equal(events(r.stdout).at(-1)!.status, 'finished', r.stderr);
        assert.ok(took < 60_000, `the run took ${took} ms: it waited for the baseline's minute-long suite`);
        // Killed with its process tree: the slow test's process is gone, and it never reached its end.
        const pidFile = path.join(root, '.slow-pid');
        if (existsSync(pidFile)) {
          const pid = Number(readFileSync(pidFile, 'utf8'));
          const alive = () => {
            try {
              process.kill(pid, 0);
              return true;
            } catch {
              return false;
            }
          };
          for (let i = 0; i < 50 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
          assert.equal(alive(), false, 'the baseline test process ran on after the run ended');
        }
        assert.ok(!existsSync(path.join(root, '.slow-done')), 'the baseline ran on after the run ended');
      },
      { ...NODE_TEST, ...SLOW4 },
    );
  });
});
