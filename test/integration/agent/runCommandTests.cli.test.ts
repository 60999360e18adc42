// Issue 30, end to end through the built CLI and the scripted model server: a read-only run_command
// answers while the baseline test run started with the run is still going; the project's test
// command run through run_command with the model's own file comes back summarised like run_tests
// (failures first, the runner's counts, against the baseline) and counts as a test run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo } from './support';

const FILES = { ...BUGGY, 'slow.test.js': "require('node:test')('slow', () => new Promise((resolve) => setTimeout(resolve, 3000)));\n" };

describe('run_command beside the baseline, and as a test run (built CLI)', { skip: skipWithoutBuild }, () => {
  test('a read-only command does not wait for the baseline; `node --test add.test.js` is summarised and judged like run_tests', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('run_command', { command: 'git log --oneline' }, 'log')] } },
      { reply: { toolCalls: [call('run_command', { command: 'node --test add.test.js' }, 'before')] }, expect: { lastMessageContains: 'initial' } },
      {
        reply: { toolCalls: [call('propose_patch', { patch: FIX })] },
        expect: { lastMessageContains: 'FAIL adds' },
      },
      { reply: { toolCalls: [call('run_command', { command: 'node --test add.test.js' }, 'after')] }, expect: { lastMessageContains: 'applied' } },
      {
        reply: { toolCalls: [call('finish', { summary: 'add() subtracted; fixed, add.test.js passes.' })] },
        expect: { lastMessageContains: 'tests passed (your command runs part of the test command `node --test`, aimed at add.test.js' },
      },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runCli([
          '--goal',
          'fix add',
          '--workspace',
          root,
          '--approve',
          'auto',
          '--test-cmd',
          'node --test',
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
          '--json',
        ]);
        assert.deepEqual(server.mismatches, []);
        const ev = events(r.stdout);
        // On a failure, what the run said at its end and each tool's result head: the stderr alone told nothing.
        const told = ev
          .filter((e) => e.type === 'run/finished' || e.type === 'tool/finished' || e.type === 'error')
          .map((e) => JSON.stringify(e).slice(0, 400))
          .join('\n');
        assert.equal(r.code, 0, `${r.stderr}\n${told}`);
        const index = (match: (e: (typeof ev)[number]) => boolean) => ev.findIndex(match);
        const baselineEnd = index((e) => e.type === 'test/finished');
        const logDone = index((e) => e.type === 'tool/finished' && e.callId === 'log');
        assert.ok(logDone >= 0 && baselineEnd > logDone, 'git log answered while the baseline ran');
        assert.ok(!ev.slice(0, logDone).some((e) => e.type === 'test/started' && e.note), 'and nothing waited for it before');
        const before = ev.find((e) => e.type === 'tool/finished' && e.callId === 'before') as unknown as { ok: boolean; output: string };
        assert.equal(before.ok, false);
        // Judged against the baseline, which ran the same failure before the edit.
        assert.match(before.output, /^1 failure, pre-existing \(adds\); no new failures \(your command runs part of the test command `node --test`/);
        assert.match(before.output, /node: 0 passed, 1 failed\n {2}FAIL adds/);
        const finished = ev.find((e) => e.type === 'run/finished') as unknown as { tests: string };
        assert.equal(finished.tests, 'passed');
      },
      FILES,
    );
  });
});
