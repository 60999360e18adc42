// The baseline starts with the run (orchestrator/earlyBaseline.ts), and the model's own run_tests
// before the first edit does not run beside it: a whole-suite one is the baseline's run (the same
// untouched tree), a narrowed one waits for it and runs after (real node:test runs).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BUGGY, FIX, call, runScripted } from './harness';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

const NODE = JSON.stringify(process.execPath);
const FILES = { ...BUGGY, 'slow.test.js': "require('node:test')('slow', () => new Promise((resolve) => setTimeout(resolve, 1500)));\n" };
const settings = (s: { tests: { commands: string[]; afterEdit: boolean } }) => {
  s.tests.commands = [`${NODE} --test`];
  s.tests.afterEdit = true;
};
/** The test runs in order: "started <command>" and "finished <command>" (notes on a running row left out). */
const testRuns = (events: AgentEvent[]) =>
  events.flatMap((e) =>
    e.type === 'test/started' && !e.note
      ? [`started ${e.command.replace(NODE, 'node')}`]
      : e.type === 'test/finished'
        ? [`finished ${e.command.replace(NODE, 'node')}`]
        : [],
  );

describe('the baseline started with the run, and the model run_tests before its first edit', () => {
  test('a whole-suite run_tests is the baseline run: one run of the untouched tree, its line not said twice', async () => {
    await runScripted(
      [
        { reply: { toolCalls: [call('run_tests', {})] } },
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] }, expect: { lastMessageContains: 'tests FAILED' } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add' })] } },
      ],
      {
        files: FILES,
        settings,
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const runs = testRuns(h.events);
          // The baseline, then the tests after the edit (add.test.js), then the whole suite before the finish.
          assert.deepEqual(runs, [
            'started node --test',
            'finished node --test',
            'started node --test add.test.js',
            'finished node --test add.test.js',
            'started node --test',
            'finished node --test',
          ]);
          const [ranTests] = h.messages(1).filter((m) => m.role === 'tool');
          assert.match(ranTests!.content!, /^tests FAILED/);
          assert.doesNotMatch(ranTests!.content!, /Before your changes/);
          const [edit] = h
            .messages(2)
            .filter((m) => m.role === 'tool')
            .slice(-1);
          assert.doesNotMatch(edit!.content!, /Before your changes/);
        },
      },
    );
  });

  test('a narrowed run_tests waits for the baseline and runs after it, never beside it', async () => {
    await runScripted(
      [
        { reply: { toolCalls: [call('run_tests', { files: ['add.test.js'] })] } },
        { reply: { toolCalls: [call('finish', { summary: 'looked' })] }, expect: { lastMessageContains: 'Before your changes (the whole suite' } },
      ],
      {
        files: FILES,
        settings,
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          assert.deepEqual(testRuns(h.events), [
            'started node --test',
            'finished node --test',
            'started node --test add.test.js',
            'finished node --test add.test.js',
          ]);
          const waited = h.events.find((e) => e.type === 'test/started' && e.note);
          assert.match(String(waited && 'note' in waited ? waited.note : ''), /^waiting for the baseline test run \(started with the run, \d+ s so far\)$/);
        },
      },
    );
  });

  test("the call that waited for the baseline says how long, with the baseline's line (a slow first edit is the suite's time)", async () => {
    const slower = { ...BUGGY, 'slow.test.js': "require('node:test')('slow', () => new Promise((resolve) => setTimeout(resolve, 4000)));\n" };
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add' })] }, expect: { lastMessageContains: 'Before your changes (the whole suite' } },
      ],
      {
        files: slower,
        settings,
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const [edit] = h
            .messages(1)
            .filter((m) => m.role === 'tool')
            .slice(-1);
          assert.match(edit!.content!, /This call waited \d+\.\d s for that run to end before it ran\./);
        },
      },
    );
  });
});
