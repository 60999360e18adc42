// Issue 30, through the agent loop (scripted model server, real node:test runs, the real command
// policy): a read-only run_command runs while the baseline test run started with the run goes on; a
// command that may write waits for it; the project's test command run through run_command is a test
// run the loop records (a whole-suite pass after the last edit: no second whole run before the finish).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCommandPolicy } from '../../../src/core/policy/command';
import type { CommandExecutor } from '../../../src/core/ports';
import { createToolRegistry } from '../../../src/core/tools';
import { createCommandExecutor } from '../../../src/core/tools/policyAdapters';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ScriptedApprover } from '../tools/helpers';
import { BUGGY, FIX, call, runScripted } from './harness';

const FILES = { ...BUGGY, 'slow.test.js': "require('node:test')('slow', () => new Promise((resolve) => setTimeout(resolve, 3000)));\n" };
const settings = (s: { tests: { commands: string[]; afterEdit: boolean } }) => {
  s.tests.commands = ['node --test'];
  s.tests.afterEdit = true;
};
/** Unsandboxed commands in the run's workspace (the cwd run_command resolved). */
const exec: CommandExecutor = { sandboxed: false, run: (r) => createCommandExecutor(r.cwd, { sandbox: 'off' }).run(r) };
const deps = async () => ({ commandPolicy: await createCommandPolicy({ trusted: true }), exec, tools: createToolRegistry({ commands: true }) });
const approver = () => new ScriptedApprover({ action: () => ({ approved: true }) });

/** Where in the event stream a tool call finished, and where the baseline's run finished. */
const at = (events: AgentEvent[], match: (e: AgentEvent) => boolean) => events.findIndex(match);

describe('run_command and the baseline started with the run', () => {
  test('read-only commands answer before the baseline ends, never waiting; a writing one waits for it', async () => {
    await runScripted(
      [
        {
          reply: { toolCalls: [call('run_command', { command: 'git log --oneline -1' }, 'c1'), call('run_command', { command: 'grep -n add add.js' }, 'c2')] },
        },
        { reply: { toolCalls: [call('run_command', { command: 'touch notes.txt' }, 'c3')] }, expect: { lastMessageContains: 'exports.add' } },
        { reply: { toolCalls: [call('finish', { summary: 'looked' })] } },
      ],
      {
        files: FILES,
        settings,
        approver: approver(),
        deps: await deps(),
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const baselineEnd = at(h.events, (e) => e.type === 'test/finished');
          const waited = at(h.events, (e) => e.type === 'test/started' && !!e.note);
          const done = (id: string) => at(h.events, (e) => e.type === 'tool/finished' && e.callId === id);
          assert.ok(baselineEnd > 0);
          assert.ok(done('c1') < baselineEnd && done('c2') < baselineEnd, 'the reads answered while the baseline ran');
          assert.ok(waited > done('c2') && waited < baselineEnd && done('c3') > baselineEnd, 'the write waited for the baseline, saying so');
        },
      },
    );
  });

  test("the test command through run_command is a test run: recorded, so a whole-suite pass after the edit is the finish's whole run", async () => {
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('run_command', { command: 'node --test' })] }, expect: { lastMessageContains: 'applied' } },
        {
          reply: { toolCalls: [call('finish', { summary: 'fixed add' })] },
          expect: { lastMessageContains: 'tests passed (your command is the test command: the whole suite, summarised like run_tests)' },
        },
      ],
      {
        files: FILES,
        settings,
        approver: approver(),
        deps: await deps(),
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const runs = h.events.flatMap((e) => (e.type === 'test/started' && !e.note ? [e.command] : []));
          // The baseline and the tests after the edit; no whole suite before the finish: the model's run was it.
          assert.deepEqual(runs, ['node --test', 'node --test add.test.js']);
        },
      },
    );
  });
});
