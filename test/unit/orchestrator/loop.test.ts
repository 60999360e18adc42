import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUGGY, FIX, TEST_CMD, call, runScripted } from './harness';
import { ScriptedApprover } from '../tools/helpers';

const withTests = (s: { tests: { commands: string[]; afterEdit: boolean } }) => {
  s.tests.commands = [TEST_CMD];
  s.tests.afterEdit = true;
};

describe('orchestrator loop against the scripted model server', () => {
  test('reads, patches, sees the tests pass after the edit, finishes; every step is in the history', async () => {
    await runScripted(
      [
        {
          reply: { text: 'Looking at the code.', toolCalls: [call('read_file', { path: 'add.js' }), call('grep', { pattern: 'add\\(' })] },
          expect: { toolsInclude: ['read_file', 'propose_patch', 'run_tests', 'finish'] },
        },
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] }, expect: { lastMessageRole: 'tool' } },
        { reply: { toolCalls: [call('finish', { summary: 'add() now adds; the test passes.' })] }, expect: { lastMessageContains: 'tests passed' } },
      ],
      {
        settings: withTests,
        inspect: async (h) => {
          assert.deepEqual(h.server.mismatches, []);
          assert.equal(readFileSync(path.join(h.root, 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
          // The second request carries the assistant's two calls followed by their two results, in order.
          const m = h.messages(1);
          assert.equal(m[0]!.role, 'system');
          assert.match(m[0]!.content!, /test commands: `.*--test add\.test\.js`/);
          assert.match(
            m[1]!.content!,
            /^<workspace-state>\ngit: branch main at [0-9a-f]{12}; 0 file\(s\) with uncommitted changes\ntop level: add.js add.test.js\n<\/workspace-state>\n\n<approval-mode>\nApproval mode auto-edit: [^\n]+\n<\/approval-mode>\n\nmake the add test pass$/,
          );
          assert.equal(m[2]!.role, 'assistant');
          assert.deepEqual(
            m[2]!.tool_calls!.map((c) => c.function.name),
            ['read_file', 'grep'],
          );
          assert.deepEqual(
            m.slice(3).map((x) => [x.role, x.tool_call_id]),
            [
              ['tool', m[2]!.tool_calls![0]!.id],
              ['tool', m[2]!.tool_calls![1]!.id],
            ],
          );
          assert.match(m[3]!.content!, /^add\.js \(1 lines\)\n1\texports\.add = \(a, b\) => a - b;/);
          assert.match(m[4]!.content!, /add\.test\.js:4: /);

          const runs = await h.history.listRuns();
          assert.equal(runs.length, 1);
          assert.equal(runs[0]!.status, 'finished');
          const detail = (await h.history.getRun(runs[0]!.id))!;
          assert.deepEqual(
            detail.steps.map((s) => `${s.role}${s.tool ? `:${s.tool}` : ''}`),
            [
              'system',
              'user',
              'assistant',
              'tool:read_file',
              'tool:grep',
              'assistant',
              'tool:propose_patch',
              'assistant',
              'tool:finish',
              'system:run/tests',
              'system:context/transcript',
            ],
          );
          assert.equal(detail.patches.length, 1);
          assert.deepEqual(detail.patches[0]!.acceptedHunks, ['add.js#1']);
          assert.match(detail.patches[0]!.reversePatch ?? '', /\+exports\.add = \(a, b\) => a - b;/);
          // The baseline before the first edit (the bug's failing test), then the tests after it.
          assert.deepEqual(
            detail.testRuns.map((t) => t.exitCode),
            [1, 0],
          );
        },
      },
    ).then((h) => {
      assert.equal(h.outcome.status, 'finished');
      assert.equal(h.outcome.summary, 'add() now adds; the test passes.');
      assert.equal(h.outcome.steps, 3);
      const types = h.events.map((e) => e.type);
      assert.equal(types[0], 'run/started');
      assert.equal(types.at(-1), 'run/finished');
      for (const t of ['step/started', 'text/delta', 'tool/started', 'tool/finished', 'patch/proposed', 'test/started', 'test/finished', 'usage'])
        assert.ok(types.includes(t as never), t);
      // The baseline starts with the run, before the first patch; the tests after the edit follow it.
      assert.ok(types.indexOf('test/started') < types.indexOf('patch/proposed'));
      assert.ok(types.indexOf('patch/proposed') < types.lastIndexOf('test/started'));
    });
  });

  test('a reply without tool calls ends the run with its text as the summary', async () => {
    const h = await runScripted([{ reply: { text: 'Nothing to do: the tests already pass.' } }]);
    assert.equal(h.outcome.status, 'finished');
    assert.equal(h.outcome.summary, 'Nothing to do: the tests already pass.');
    assert.equal(h.outcome.reason, 'the model replied without a tool call');
  });

  test('the step limit stops the run with status limit', async () => {
    const read = { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } };
    const h = await runScripted([read, read, read], { settings: (s) => (s.limits.maxSteps = 2) });
    assert.equal(h.outcome.status, 'limit');
    assert.match(h.outcome.reason, /step limit \(2\)/);
    assert.equal(h.server.turnsServed, 2);
  });

  test('consecutive failed steps stop the run; a success in between resets the count', async () => {
    const bad = { reply: { toolCalls: [call('read_file', { path: 'nope.js' })] } };
    const good = { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } };
    // The loop guard (the same failing call again) would stop this earlier: it has its own test.
    const h = await runScripted([bad, bad, good, bad, bad, bad], {
      settings: (s) => {
        s.limits.maxConsecutiveFailures = 3;
        s.limits.maxRepeatedFailures = 10;
      },
    });
    assert.equal(h.outcome.status, 'failed');
    assert.match(h.outcome.reason, /3 steps in a row where every tool call failed/);
    assert.equal(h.outcome.steps, 6);
  });

  test('broken tool-call JSON and unknown tools go back to the model as errors; nothing is run', async () => {
    const h = await runScripted(
      [
        { reply: { toolCalls: [call('write_file', '{"path": "x.js", "content": '), call('delete_everything', {})] } },
        { reply: { toolCalls: [call('finish', { summary: 'gave up' })] }, expect: { anyMessageContains: 'not valid JSON' } },
      ],
      {
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const m = h.messages(1);
          const results = m.filter((x) => x.role === 'tool').map((x) => x.content);
          assert.equal(results.length, 2, 'one result per call, broken ones included');
          assert.ok(results.some((r) => /unknown tool "delete_everything"|not available/.test(r!)));
          assert.ok(
            results.some((r) => r!.includes('You sent: {"path": "x.js", "content": ')),
            'the model sees what it sent',
          );
        },
      },
    );
    assert.equal(h.outcome.status, 'finished');
    // The viewers show the broken call as a failed tool call, like an unknown tool.
    const broken = h.events.find((e) => e.type === 'tool/finished' && e.name === 'write_file');
    assert.ok(broken && broken.type === 'tool/finished' && !broken.ok && /not valid JSON/.test(broken.output));
    assert.ok(h.events.some((e) => e.type === 'tool/started' && e.name === 'write_file'));
  });

  test("ask mode: a rejected patch goes back to the model with the user's words; nothing changes", async () => {
    const approver = new ScriptedApprover({ patch: () => ({ acceptedHunks: [], feedback: 'fix the test instead' }) });
    const h = await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('finish', { summary: 'stopped' })] }, expect: { lastMessageContains: 'fix the test instead' } },
      ],
      {
        approver,
        settings: (s) => (s.approval.mode = 'ask'),
        inspect: async (h) => {
          assert.equal(readFileSync(path.join(h.root, 'add.js'), 'utf8'), BUGGY['add.js']);
          // Told as patch/refused (the API's onDidRefusePatch), under the id of the history's row.
          const refused = h.events.filter((e) => e.type === 'patch/refused');
          const proposed = h.events.find((e) => e.type === 'patch/proposed');
          const rows = (await h.history.getRun(h.events[0]!.type === 'run/started' ? h.events[0]!.runId! : ''))!.patches;
          assert.equal(rows.length, 1);
          assert.deepEqual(
            refused.map((e) => e.type === 'patch/refused' && [e.patchId, e.hunks.map((x) => x.state)]),
            [[rows[0]!.id, ['rejected']]],
          );
          assert.equal(proposed?.type === 'patch/proposed' && proposed.patchId, rows[0]!.id);
          assert.ok(!h.events.some((e) => e.type === 'patch/applied'));
        },
      },
    );
    assert.deepEqual(h.server.mismatches, []);
    assert.equal(approver.patchRequests.length, 1);
    const types = h.events.map((e) => e.type);
    assert.ok(types.includes('approval/needed') && types.includes('approval/answered'));
  });

  test('plan mode offers no writing tools and applies nothing', async () => {
    const h = await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX }), call('write_file', { path: 'x.js', content: '' })] } },
        { reply: { text: 'Plan: change - to + in add.js.' }, expect: { anyMessageContains: 'NOT applied' } },
      ],
      {
        settings: (s) => (s.approval.mode = 'plan'),
        inspect: (h) => {
          const offered = h.server.chatRequests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
          assert.ok(offered.includes('propose_patch') && offered.includes('read_file'));
          assert.ok(!offered.includes('write_file') && !offered.includes('run_tests'));
          assert.equal(readFileSync(path.join(h.root, 'add.js'), 'utf8'), BUGGY['add.js']);
          assert.match(h.messages(1).at(-1)!.content!, /not available in plan mode/);
        },
      },
    );
    assert.equal(h.outcome.status, 'finished');
  });

  test('read-only calls of one reply run in parallel', async () => {
    // Each call waits until both have started: run one after the other, the first would never finish.
    let started = 0;
    let release!: () => void;
    const both = new Promise<void>((r) => (release = r));
    const barrier = {
      name: 'barrier',
      description: 'test tool',
      schema: { type: 'object' as const, properties: {}, additionalProperties: false },
      readOnly: true,
      async run() {
        if (++started === 2) release();
        await Promise.race([both, new Promise((_, reject) => setTimeout(() => reject(new Error('ran sequentially')), 5_000))]);
        return { ok: true, output: 'passed the barrier' };
      },
    };
    const { createToolRegistry } = await import('../../../src/core/tools');
    const tools = createToolRegistry();
    tools.register(barrier);
    const h = await runScripted([{ reply: { toolCalls: [call('barrier', {}), call('barrier', {})] } }, { reply: { text: 'done' } }], {
      deps: { tools },
      inspect: (h) =>
        assert.deepEqual(
          h
            .messages(1)
            .filter((m) => m.role === 'tool')
            .map((m) => m.content),
          ['passed the barrier', 'passed the barrier'],
        ),
    });
    assert.equal(h.outcome.status, 'finished');
  });

  test('a stream cut mid-reply is discarded (never executed) and the step is retried', async () => {
    const h = await runScripted([
      { reply: { toolCalls: [call('write_file', { path: 'evil.js', content: 'x' })] }, faults: [{ kind: 'cut', afterChunks: 2 }] },
      { reply: { toolCalls: [call('finish', { summary: 'ok' })] } },
    ]);
    assert.equal(h.outcome.status, 'finished');
    assert.ok(
      h.events.some((e) => e.type === 'tool/started' && e.name === 'write_file'),
      'the retried reply ran',
    );
  });

  test('a stream cut twice in one step stops the run as interrupted; nothing of it ran', async () => {
    const h = await runScripted(
      [
        {
          reply: { toolCalls: [call('write_file', { path: 'evil.js', content: 'x' })] },
          faults: [
            { kind: 'cut', afterChunks: 2 },
            { kind: 'cut', afterChunks: 3 },
          ],
        },
        { reply: { text: 'never asked' } },
      ],
      {
        inspect: async (h) => {
          const run = (await h.history.listRuns())[0]!;
          assert.equal(run.status, 'interrupted');
          assert.equal(h.server.chatRequests.length, 2);
        },
      },
    );
    assert.equal(h.outcome.status, 'interrupted');
    assert.match(h.outcome.reason, /broke off twice/);
    assert.ok(!h.events.some((e) => e.type === 'tool/started'));
  });

  test('cancel during a test command kills it and ends the run as cancelled', async () => {
    const controller = new AbortController();
    const h = await runScripted([{ reply: { toolCalls: [call('run_tests', {})] } }, { reply: { text: 'never asked' } }], {
      signal: controller.signal,
      settings: (s) => {
        s.tests.commands = ['echo started; sleep 30'];
        s.approval.mode = 'auto';
      },
      deps: { onEvent: (e) => e.type === 'test/started' && setTimeout(() => controller.abort(), 100) },
    });
    assert.equal(h.outcome.status, 'cancelled');
    assert.equal(h.server.turnsServed, 1);
  });

  test('the wall-clock budget stops a run that is still working', async () => {
    const h = await runScripted([{ reply: { toolCalls: [call('run_tests', {})] } }, { reply: { text: 'never asked' } }], {
      settings: (s) => {
        s.tests.commands = ['sleep 30'];
        s.limits.wallClockMinutes = 0.01;
      },
    });
    assert.equal(h.outcome.status, 'limit');
    assert.match(h.outcome.reason, /wall-clock limit/);
  });

  test('a 5 MB tool result is cut before it enters the context', async () => {
    const big = Array.from({ length: 60_000 }, (_, i) => `const value${i} = ${i}; // padding padding padding padding padding`).join('\n');
    const h = await runScripted([{ reply: { toolCalls: [call('grep', { pattern: 'value' })] } }, { reply: { text: 'done' } }], { files: { 'big.js': big } });
    const toolMessage = h.messages(1).find((m) => m.role === 'tool')!;
    assert.ok(toolMessage.content!.length < 20_000, `tool result of ${toolMessage.content!.length} chars`);
    assert.equal(h.outcome.status, 'finished');
  });
});
