// The fast model's side jobs (observation insights in batches, the run's Q&A summary) against the
// scripted model server: its requests are told apart from the agent's by the `model` in the body.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, runScripted } from './harness';
import { parseInsights } from '../../../src/core/orchestrator/fastModel';
import type { ScriptedTurn } from '../../support/scriptedModel';

const FAST = { fastModel: 'fast-model' };
const fastTurn = (reply: ScriptedTurn['reply'], expect: ScriptedTurn['expect'] = {}, faults?: ScriptedTurn['faults']): ScriptedTurn => ({
  reply,
  expect: { model: 'fast-model', ...expect },
  ...(faults ? { faults } : {}),
});
const agentTurn = (reply: ScriptedTurn['reply']): ScriptedTurn => ({ reply, expect: { model: 'scripted-model' } });

describe('fast model: insights and the Q&A summary', () => {
  test("one insight request for a step's results, then the Q&A summary; both stored, usage per role", async () => {
    let recordedTokensIn = -1;
    const h = await runScripted(
      [
        agentTurn({ toolCalls: [call('grep', { pattern: 'exports' }), call('glob', { pattern: '*.js' }), call('read_file', { path: 'add.js' })] }),
        // (a glob result this short is below the store's minimum: the fast model is not asked about it)
        agentTurn({ toolCalls: [call('finish', { summary: 'add() subtracts; reported.' })] }),
        fastTurn(
          { text: '```json\n{"insights": ["add.js exports add()"]}\n```', usage: { promptTokens: 300, completionTokens: 20 } },
          { lastMessageContains: 'Result 1: grep' },
        ),
        fastTurn(
          { text: 'add() in add.js subtracts instead of adding; add.test.js checks add(2, 2) === 4.', usage: { promptTokens: 200, completionTokens: 30 } },
          { anyMessageContains: 'Goal: find the bug' },
        ),
      ],
      {
        model: FAST,
        goal: 'find the bug',
        inspect: async (h) => {
          assert.deepEqual(h.server.mismatches, []);
          assert.equal(h.server.turnsServed, 4);
          // read_file is not remembered, the glob result is too short to store: one result went to the fast model.
          assert.doesNotMatch(h.messages(2).at(-1)!.content!, /Result 2/);
          const run = (await h.history.listRuns())[0]!;
          const detail = (await h.history.getRun(run.id))!;
          const obs = detail.observations.filter((o) => o.type === 'observation');
          assert.deepEqual(
            obs.map((o) => [o.tool, o.text]),
            [['grep', 'add.js exports add()']],
          );
          const qa = detail.observations.filter((o) => o.type === 'qa');
          assert.deepEqual(
            qa.map((o) => [o.text, o.detail]),
            [['find the bug', 'add() in add.js subtracts instead of adding; add.test.js checks add(2, 2) === 4.']],
          );
          const found = await h.history.search('subtracts', { type: 'qa' });
          assert.equal(found.length, 1);
          recordedTokensIn = run.tokensIn;
        },
      },
    );
    assert.equal(h.outcome.status, 'finished');
    assert.deepEqual([h.outcome.usageByRole.reasoning.requests, h.outcome.usageByRole.fast.requests], [2, 2]);
    assert.deepEqual([h.outcome.usageByRole.fast.promptTokens, h.outcome.usageByRole.fast.completionTokens], [500, 50]);
    assert.equal(h.outcome.usage.requests, 4);
    // The run's token totals in the history include the fast model's.
    assert.equal(recordedTokensIn, h.outcome.usage.promptTokens);
    const fastUsage = h.events.filter((e) => e.type === 'usage' && e.role === 'fast');
    assert.equal(fastUsage.length, 2);
    const finished = h.events.at(-1)!;
    assert.ok(finished.type === 'run/finished' && finished.usage);
    assert.deepEqual([finished.usage.fast.model, finished.usage.fast.requests, finished.usage.reasoning.requests], ['fast-model', 2, 2]);
    assert.equal(h.events.filter((e) => e.type === 'warning').length, 0);
  });

  test('17 remembered results: one mid-run request for the first 16, one at the end for the last', async () => {
    const greps = Array.from({ length: 17 }, (_, i) => call('grep', { pattern: i % 2 ? 'add' : 'exports' }));
    const sixteen = JSON.stringify({ insights: Array.from({ length: 16 }, (_, i) => `insight ${i}`) });
    const h = await runScripted(
      [
        agentTurn({ toolCalls: greps }),
        fastTurn({ text: sixteen }, { lastMessageContains: 'Result 16: grep' }),
        agentTurn({ toolCalls: [call('finish', { summary: 'looked' })] }),
        fastTurn({ text: '["the last one"]' }, { lastMessageContains: 'Result 1: grep' }),
        fastTurn({ text: 'Looked around.' }),
      ],
      {
        model: FAST,
        inspect: async (h) => {
          assert.deepEqual(h.server.mismatches, []);
          assert.doesNotMatch(h.messages(1).at(-1)!.content!, /Result 17/);
          const detail = (await h.history.getRun((await h.history.listRuns())[0]!.id))!;
          const texts = detail.observations.filter((o) => o.type === 'observation').map((o) => o.text);
          assert.equal(texts.length, 17);
          assert.deepEqual([texts[0], texts[15], texts[16]], ['insight 0', 'insight 15', 'the last one']);
        },
      },
    );
    assert.equal(h.outcome.status, 'finished');
    assert.equal(h.outcome.usageByRole.fast.requests, 3);
  });

  test('a fast model that answers nonsense or fails: plain insight and answer, one warning, the run is unharmed', async () => {
    const h = await runScripted(
      [
        agentTurn({ toolCalls: [call('grep', { pattern: 'exports' })] }),
        agentTurn({ toolCalls: [call('finish', { summary: 'done looking' })] }),
        fastTurn({ text: 'Sure! Here are some insights: the code adds.' }),
        fastTurn({ text: 'never served' }, {}, [{ kind: 'quota' }]),
      ],
      {
        model: FAST,
        inspect: async (h) => {
          const detail = (await h.history.getRun((await h.history.listRuns())[0]!.id))!;
          assert.equal(detail.run.status, 'finished');
          const obs = detail.observations.find((o) => o.type === 'observation')!;
          assert.equal(obs.text, 'grep pattern="exports"');
          const qa = detail.observations.find((o) => o.type === 'qa')!;
          assert.match(qa.detail, /^finished after 2 step\(s\): done looking\nNo files changed\.\nTools: grep, finish$/);
        },
      },
    );
    assert.equal(h.outcome.status, 'finished');
    const warnings = h.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /insights were not 1 JSON strings/);
  });

  test('no fast model configured: no extra request; plain insight and answer are still stored', async () => {
    const h = await runScripted([{ reply: { toolCalls: [call('grep', { pattern: 'require' })] } }, { reply: { text: 'Two files.' } }], {
      inspect: async (h) => {
        assert.equal(h.server.chatRequests.length, 2);
        const detail = (await h.history.getRun((await h.history.listRuns())[0]!.id))!;
        assert.deepEqual(
          detail.observations.map((o) => [o.type, o.text]),
          [
            ['observation', 'grep pattern="require"'],
            ['qa', 'make the add test pass'],
          ],
        );
        assert.match(detail.observations[1]!.detail, /^finished after 2 step\(s\): Two files\./);
      },
    });
    assert.equal(h.outcome.usageByRole.fast.requests, 0);
  });

  test('a run that failed at the model before any tool call leaves no Q&A summary to crowd later prompts', async () => {
    const h = await runScripted([{ reply: { text: 'never sent' }, faults: [{ kind: 'quota' }] }], {
      inspect: async (h) => {
        const detail = (await h.history.getRun((await h.history.listRuns())[0]!.id))!;
        assert.equal(detail.run.status, 'failed');
        assert.deepEqual(detail.observations, [], 'nothing learned, nothing remembered');
        assert.deepEqual(await h.history.search('add test', { type: 'qa' }), []);
      },
    });
    assert.equal(h.outcome.status, 'failed');
  });

  test('a cancelled run writes its memory without asking the fast model', async () => {
    const controller = new AbortController();
    const h = await runScripted(
      [agentTurn({ toolCalls: [call('grep', { pattern: 'add' })] }), agentTurn({ toolCalls: [call('run_tests', {})] }), fastTurn({ text: 'never asked' })],
      {
        model: FAST,
        signal: controller.signal,
        settings: (s) => {
          s.tests.commands = ['sleep 30'];
          s.approval.mode = 'auto';
        },
        deps: { onEvent: (e) => e.type === 'test/started' && setTimeout(() => controller.abort(), 50) },
        inspect: async (h) => {
          assert.equal(h.server.chatRequests.length, 2);
          const detail = (await h.history.getRun((await h.history.listRuns())[0]!.id))!;
          assert.equal(detail.run.status, 'cancelled');
          assert.deepEqual(detail.observations.map((o) => o.type).sort(), ['observation', 'qa']);
        },
      },
    );
    assert.equal(h.outcome.status, 'cancelled');
  });

  test('parseInsights takes exactly the asked number of strings, fenced or bare, and nothing else', () => {
    assert.deepEqual(parseInsights('{"insights": ["a", " b  c "]}', 2), ['a', 'b c']);
    assert.deepEqual(parseInsights('```\n["x"]\n```', 1), ['x']);
    assert.equal(parseInsights('["x"]', 2), undefined);
    assert.equal(parseInsights('{"insights": [1]}', 1), undefined);
    assert.equal(parseInsights('no json here', 1), undefined);
    assert.equal(parseInsights('{"insights": ["a"', 1), undefined);
  });
});
