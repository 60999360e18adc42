// End to end: what a reasoning model's thinking becomes in `patchpilot run` (the built binary
// against the scripted model server, which streams `reasoning_content` like DeepSeek and vLLM):
// shown (--json events, --show-reasoning), kept (a history step), asked again when it is all the
// reply holds, and sent back only where the provider's protocol needs it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY } from '../../unit/orchestrator/harness';
import { call, events, historyRuns, runCli, skipWithoutBuild, withRepo } from './support';

type WireMessage = { role: string; content: string | null; reasoning_content?: string };
const messagesOf = (body: unknown) => (body as { messages: WireMessage[] }).messages;

describe('reasoning models in patchpilot run (built CLI, scripted model server)', { skip: skipWithoutBuild }, () => {
  test('reasoning streams as events, a reasoning-only reply is answered with a request to act (never a silent finish), the history keeps it', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { reasoning: 'The bug is probably in add.js.' } },
      { reply: { reasoning: 'Read it first.', toolCalls: [call('read_file', { path: 'add.js' })] }, expect: { lastMessageContains: 'only reasoning' } },
      { reply: { toolCalls: [call('finish', { summary: 'add() subtracts.' })] } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'why does the test fail', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      const ev = events(r.stdout);
      const reasoning = ev
        .filter((e) => e.type === 'reasoning/delta')
        .map((e) => e.text)
        .join('');
      assert.equal(reasoning, 'The bug is probably in add.js.Read it first.');
      assert.deepEqual(
        ev.filter((e) => e.type === 'model/notice').map((e) => e.kind),
        ['reasoning-only'],
      );
      assert.equal(ev.at(-1)!.status, 'finished');
      // A provider that does not take reasoning back (most) never gets it.
      for (const q of server.chatRequests) assert.ok(messagesOf(q.body).every((m) => m.reasoning_content === undefined));
      const [run] = await historyRuns(root);
      const show = await runCli(['show', run!.id, '--cwd', root], { command: 'history' });
      assert.match(show.stdout, /system model\/reasoning: The bug is probably in add\.js\./);
      assert.match(show.stdout, /system model\/reasoning: Read it first\./);
    });
  });

  test('a reply that stays reasoning only ends failed with the reason, after asking twice', async () => {
    const turns: ScriptedTurn[] = [{ reply: { reasoning: 'hmm' } }, { reply: { reasoning: 'hmm again' } }, { reply: { reasoning: 'still hmm' } }];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'think', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json']);
      assert.equal(r.code, 1, r.stderr);
      const last = events(r.stdout).at(-1)!;
      assert.equal(last.status, 'failed');
      assert.match(String(last.reason), /no usable answer 3 times/);
      assert.match(r.stderr, /to retry, run the same command again/);
    });
  });

  test('--show-reasoning prints the thinking apart from the answer; without it the summary printer leaves it out', async () => {
    const reply = (): ScriptedTurn[] => [{ reply: { reasoning: 'Considering the okapi.', text: 'The answer is 7.' } }];
    for (const show of [true, false]) {
      await withRepo(reply(), async (root, server) => {
        const r = await runCli([
          '--goal',
          'answer',
          '--workspace',
          root,
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
          ...(show ? ['--show-reasoning'] : []),
        ]);
        assert.equal(r.code, 0, r.stderr);
        if (show) assert.match(r.stderr, /thinking:\nConsidering the okapi\.\nanswer:\nThe answer is 7\./);
        else assert.doesNotMatch(r.stderr, /okapi/);
        assert.equal(r.stdout, 'The answer is 7.\n');
      });
    }
  });

  test('DeepSeek thinking mode: reasoning goes back within the tool loop of a turn, never from an earlier turn', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { reasoning: 'Need the file.', toolCalls: [call('read_file', { path: 'add.js' })] } },
      {
        reply: { reasoning: 'Enough.', toolCalls: [call('finish', { summary: 'add() subtracts.' })] },
        check: ({ body }) => {
          const assistant = messagesOf(body).filter((m) => m.role === 'assistant');
          if (assistant.length !== 1 || assistant[0]!.reasoning_content !== 'Need the file.')
            return `expected the loop's reasoning back, got ${JSON.stringify(assistant)}`;
        },
      },
      {
        reply: { text: 'Nothing else.' },
        check: ({ body }) => {
          const carrying = messagesOf(body).filter((m) => m.reasoning_content !== undefined);
          if (carrying.length) return `an earlier turn's reasoning was sent: ${JSON.stringify(carrying)}`;
        },
      },
    ];
    await withRepo(turns, async (root, server) => {
      const args = ['--workspace', root, '--base-url', server.baseUrl, '--model', 'deepseek-reasoner', '--json'];
      const first = await runCli(['--goal', 'why does the test fail', ...args]);
      assert.equal(first.code, 0, first.stderr);
      const second = await runCli(['--goal', 'anything else?', '--resume', 'last', ...args]);
      assert.equal(second.code, 0, second.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.equal(server.chatRequests.length, 3);
    });
  });

  test("a context-length refusal (older vLLM's flat error body) compacts the conversation and sends the step again", async () => {
    const overflow = {
      object: 'error',
      message: "This model's maximum context length is 2048 tokens. However, you requested 4100 tokens.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    };
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('read_file', { path: 'notes.txt' })] } },
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      { reply: { toolCalls: [call('finish', { summary: 'done' })] }, faults: [{ kind: 'status', status: 400, body: overflow }] },
    ];
    const files = { ...BUGGY, 'notes.txt': 'background notes '.repeat(400) };
    await withRepo(
      { turns, modelReplies: { 'fast-model': { text: 'Read notes.txt: background only.' } } },
      async (root, server) => {
        const r = await runCli([
          '--goal',
          'fix it',
          '--workspace',
          root,
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
          '--fast-model',
          'fast-model',
          '--json',
        ]);
        assert.equal(r.code, 0, r.stderr);
        const ev = events(r.stdout);
        assert.deepEqual(
          ev.filter((e) => e.type === 'model/notice').map((e) => e.kind),
          ['context-overflow'],
        );
        assert.match(String(ev.find((e) => e.type === 'model/notice')!.message), /maximum context length is 2048/);
        assert.ok(ev.some((e) => e.type === 'context/summarized'));
        assert.equal(ev.at(-1)!.status, 'finished');
        // The retried request no longer carries the long file.
        const last = server.chatRequests.filter((q) => (q.body as { model: string }).model === 'scripted-model').at(-1)!;
        assert.ok(!JSON.stringify(last.body).includes('background notes background notes background notes'));
      },
      files,
    );
  });
});
