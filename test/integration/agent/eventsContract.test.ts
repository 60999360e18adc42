// The contract of `patchpilot run --json` (docs/api.md): every exit code produced for real by the
// built CLI against the scripted model server, every line of each run valid against
// docs/events.schema.json, each line versioned, and exactly one `result` event, the last, whose
// conclusion and exit code are the process's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { CLI, call, cliEnv, events, runCli, skipWithoutBuild, withRepo, type CliRun } from './support';

const SCHEMA = JSON.parse(readFileSync(path.resolve(__dirname, '../../../docs/events.schema.json'), 'utf8'));
// strict: false: the schema picks each event's shape with if/then, which Ajv's strict mode flags.
const validate = new Ajv({ allErrors: true, strict: false }).compile(SCHEMA);

const NODE_TEST = { ...BUGGY, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) };
const LEGACY = {
  'legacy.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\ntest('legacy parser', () => assert.equal('a,b'.split(';').length, 2));\n",
};
const FIXED = { ...NODE_TEST, 'add.js': 'exports.add = (a, b) => a + b;\n' };
const BREAK = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a + b;\n+exports.add = (a, b) => a + b + 1;\n';
const model = (server: { baseUrl: string }) => ['--base-url', server.baseUrl, '--model', 'scripted-model'];
const goal = (root: string, server: { baseUrl: string }, ...extra: string[]) =>
  runCli(['--goal', 'fix add', '--workspace', root, ...extra, ...model(server), '--json']);

/** Each line valid and versioned, one result at the end; returns the result. */
function checkContract(r: CliRun): Record<string, any> {
  const lines = events(r.stdout);
  assert.ok(lines.length > 0, r.stderr);
  for (const line of lines) assert.ok(validate(line), `${JSON.stringify(line).slice(0, 400)}\n${JSON.stringify(validate.errors, null, 1).slice(0, 1500)}`);
  assert.ok(lines.every((l) => l.v === 1));
  assert.equal(lines.filter((l) => l.type === 'result').length, 1, 'exactly one result event');
  const result = lines.at(-1) as Record<string, any>;
  assert.equal(result.type, 'result');
  assert.equal(result.exitCode, r.code, 'the result names the exit code');
  return result;
}

const patch = (p: string) => ({ reply: { toolCalls: [call('propose_patch', { patch: p })] } });
const finish = (summary = 'Done.') => ({ reply: { toolCalls: [call('finish', { summary })] } });

describe('patchpilot run --json: exit codes and the event schema', { skip: skipWithoutBuild }, () => {
  test('0 success: finished, tests passed; the result carries tests, usage, tokens and cost', async () => {
    await withRepo(
      [patch(FIX), finish('add() adds.')],
      async (root, server) => {
        const r = await goal(root, server, '--approve', 'auto-edit');
        const result = checkContract(r);
        assert.deepEqual([r.code, result.conclusion, result.status, result.tests, result.summary], [0, 'success', 'finished', 'passed', 'add() adds.']);
        assert.equal(result.usage.reasoning.requests, 2);
        assert.equal(result.tokens, result.usage.reasoning.promptTokens + result.usage.reasoning.completionTokens);
        assert.ok(result.tokens > 0);
        assert.equal(result.costUsd, null, 'the scripted model has no price');
        const finished = events(r.stdout).find((e) => e.type === 'run/finished')!;
        assert.equal(result.runId, finished.runId);
      },
      NODE_TEST,
    );
  });

  test('3 known-failures: finished, the only failing test failed before the run', async () => {
    await withRepo(
      [patch(FIX), finish('Fixed add(); the legacy parser test failed before.')],
      async (root, server) => {
        const result = checkContract(await goal(root, server, '--approve', 'auto-edit'));
        assert.deepEqual(
          [result.exitCode, result.conclusion, result.tests, result.testFailures],
          [3, 'known-failures', 'known-failures', { preExisting: ['legacy parser'] }],
        );
      },
      { ...NODE_TEST, ...LEGACY },
    );
  });

  test('4 tests-failed: finished while tests the run broke fail', async () => {
    await withRepo(
      [patch(BREAK), finish(), finish('Done, the tests fail.')],
      async (root, server) => {
        const result = checkContract(await goal(root, server, '--approve', 'auto-edit'));
        assert.deepEqual([result.exitCode, result.conclusion, result.status, result.tests], [4, 'tests-failed', 'finished', 'failed']);
      },
      FIXED,
    );
  });

  test('5 blocked: every edit needed an approval nobody could give', async () => {
    await withRepo([patch(FIX), { reply: { text: 'Fixed it.' } }], async (root, server) => {
      const result = checkContract(await goal(root, server));
      assert.deepEqual([result.exitCode, result.conclusion, result.status], [5, 'blocked', 'blocked']);
    });
  });

  test('6 budget: the step limit, and a token budget', async () => {
    const read = { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } };
    await withRepo([read, read], async (root, server) => {
      const result = checkContract(await goal(root, server, '--max-steps', '1'));
      assert.deepEqual([result.exitCode, result.conclusion, result.status], [6, 'budget', 'limit']);
    });
    const costly = { reply: { toolCalls: [call('read_file', { path: 'add.js' })], usage: { promptTokens: 50_000, completionTokens: 100 } } };
    await withRepo([costly, finish()], async (root, server) => {
      const result = checkContract(await goal(root, server, '--max-tokens', '52000'));
      assert.deepEqual([result.exitCode, result.conclusion, result.status, result.stoppedBy], [6, 'budget', 'stopped', 'budget']);
      assert.ok(result.tokens >= 50_100);
    });
  });

  test('1 error: the model never answers with anything but reasoning', async () => {
    const turns: ScriptedTurn[] = [{ reply: { reasoning: 'hmm' } }, { reply: { reasoning: 'hmm again' } }, { reply: { reasoning: 'still hmm' } }];
    await withRepo(turns, async (root, server) => {
      const result = checkContract(await goal(root, server));
      assert.deepEqual([result.exitCode, result.conclusion, result.status], [1, 'error', 'failed']);
    });
  });

  test('2 usage: a goal that never ran still ends with a result (not-started)', async () => {
    await withRepo([], async (root, server) => {
      const result = checkContract(await goal(root, server, '--resume', 'no-such-run'));
      assert.deepEqual([result.exitCode, result.conclusion, result.status, result.steps], [2, 'usage', 'not-started', 0]);
      assert.match(result.reason, /--resume/);
    });
  });

  test('130 cancelled: SIGTERM during a test run', async () => {
    await withRepo([{ reply: { toolCalls: [call('run_tests', {})] } }, { reply: { text: 'unreachable' } }], async (root, server) => {
      const args = ['run', '--goal', 'test', '--workspace', root, '--approve', 'auto', '--test-cmd', 'sleep 33', ...model(server), '--json'];
      const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        const before = stdout.includes('"test/started"');
        stdout += d;
        if (!before && stdout.includes('"test/started"')) setTimeout(() => child.kill('SIGTERM'), 200);
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      const result = checkContract({ code, stdout, stderr });
      assert.deepEqual([result.exitCode, result.conclusion, result.status], [130, 'cancelled', 'cancelled']);
    });
  });
});
