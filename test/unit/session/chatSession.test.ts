// A chat is a session of runs: a follow-up continues the same conversation; a message sent during a
// run reaches the model at its next step. Real HTTP, the real openai client, the scripted model server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import { ModelClient } from '../../../src/core/llm';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import type { OrchestratorDeps } from '../../../src/core/orchestrator';
import { ChatSession } from '../../../src/core/session';
import { createToolRegistry } from '../../../src/core/tools';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ScriptedModelServer, type ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY } from '../orchestrator/harness';
import { ScriptedApprover, gitInit, tempWorkspace } from '../tools/helpers';

type Msg = { role: string; content: string | null };
/** A goal as the user typed it: without the workspace's state that rides with it (context/liveState.ts). */
// What the user typed: the goal without the blocks that ride with it (the workspace's state, the approval mode, the memory).
const typed = (m: Msg) =>
  m.role === 'user'
    ? (m.content ?? '').replace(
        /^<workspace-state>\n[\s\S]*?\n<\/workspace-state>\n\n(<approval-mode>\n[\s\S]*?\n<\/approval-mode>\n\n)?(<memory [^>]*>\n[\s\S]*?\n<\/memory>\n\n)?/,
        '',
      )
    : m.content;

async function withChat(turns: ScriptedTurn[], body: (chat: ChatSession, server: ScriptedModelServer, events: AgentEvent[]) => Promise<void>): Promise<void> {
  const ws = tempWorkspace(BUGGY);
  gitInit(ws.root);
  const server = await ScriptedModelServer.start(turns);
  try {
    const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
    const events: AgentEvent[] = [];
    let chat: ChatSession | undefined;
    const deps: OrchestratorDeps = {
      root: ws.root,
      settings,
      model: new ModelClient({ baseUrl: server.baseUrl, model: 'scripted-model', idleTimeoutMs: 3_000, firstChunkTimeoutMs: 3_000 }, { random: () => 0 }),
      tools: createToolRegistry({}),
      approver: new ScriptedApprover(),
      tasks: new NodeTaskRunner(),
      patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }),
      fs: new NodeWorkspaceFs(ws.root),
      onEvent: (e) => {
        events.push(e);
        // The user types while the model's read_file call runs.
        if (e.type === 'tool/started' && e.name === 'read_file') assert.equal(chat!.send('also handle null').kind, 'queued');
      },
    };
    chat = new ChatSession({ deps });
    await body(chat, server, events);
  } finally {
    await server.close();
  }
}

const messages = (server: ScriptedModelServer, i: number): Msg[] =>
  server.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]!.body.messages as Msg[];

test('a follow-up continues the same conversation with the earlier turns in context', async () => {
  await withChat(
    [
      { reply: { text: 'add() subtracts: `a - b` should be `a + b`.' } },
      { reply: { text: 'To handle null, check the arguments first.' }, expect: { anyMessageContains: 'add() subtracts' } },
    ],
    async (chat, server) => {
      const first = chat.send('why does the add test fail?');
      assert.equal(first.kind, 'started');
      assert.equal((await (first as { outcome: Promise<{ status: string }> }).outcome).status, 'finished');
      const second = chat.send('now also handle null');
      assert.equal(second.kind, 'started');
      const outcome = await (second as { outcome: Promise<{ status: string; summary?: string }> }).outcome;
      assert.equal(outcome.status, 'finished');
      const sent = messages(server, 1);
      assert.deepEqual(
        sent.filter((m) => m.role !== 'system').map((m) => [m.role, typed(m)]),
        [
          ['user', 'why does the add test fail?'],
          ['assistant', 'add() subtracts: `a - b` should be `a + b`.'],
          ['user', 'now also handle null'],
        ],
      );
      assert.equal(sent.filter((m) => m.role === 'system').length, 1);
      assert.equal(chat.earlier.length, 4);
    },
  );
});

test('a message sent while a run works reaches the model at its next step', async () => {
  await withChat(
    [
      { reply: { toolCalls: [{ name: 'read_file', arguments: { path: 'add.js' } }] } },
      {
        reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'read it; will handle null too' } }] },
        expect: { lastMessageRole: 'user', lastMessageContains: 'also handle null' },
      },
    ],
    async (chat, server, events) => {
      const sent = chat.send('look at add.js');
      assert.equal(sent.kind, 'started');
      const outcome = await (sent as { outcome: Promise<{ status: string; reason: string }> }).outcome;
      assert.equal(outcome.status, 'finished', outcome.reason);
      const second = messages(server, 1);
      assert.equal(second.at(-1)?.role, 'user');
      assert.equal(second.at(-1)?.content, 'also handle null');
      assert.ok(events.some((e) => e.type === 'user/delivered' && e.text === 'also handle null'));
      assert.equal(chat.queued.length, 0);
      await chat.whenIdle();
      assert.equal(server.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 2, 'no extra run: the message was delivered in the run');
    },
  );
});

test('Stop cancels the run; the chat keeps a valid conversation for the next message', async () => {
  await withChat(
    [{ reply: { text: 'thinking very slowly about it', chunkDelayMs: 200, textChunkSize: 2 } }, { reply: { text: 'ok' } }],
    async (chat, server, events) => {
      const sent = chat.send('explain add.js') as { kind: 'started'; outcome: Promise<{ status: string }> };
      // Stop mid-stream, once the first words arrived.
      const poll = setInterval(() => events.some((e) => e.type === 'text/delta') && chat.stop(), 20);
      sent.outcome.finally(() => clearInterval(poll)).catch(() => undefined);
      assert.equal((await sent.outcome).status, 'cancelled');
      assert.equal(chat.running, false);
      const next = chat.send('try again') as { kind: 'started'; outcome: Promise<{ status: string }> };
      assert.equal((await next.outcome).status, 'finished');
      const last = messages(server, server.requests.filter((r) => r.path.endsWith('/chat/completions')).length - 1);
      assert.deepEqual(last.map((m) => [m.role, typed(m)?.slice(0, 20)]).slice(1), [
        ['user', 'explain add.js'],
        ['user', 'try again'],
      ]);
    },
  );
});

test('a host note (a run-on-save result) reaches a working run at its next step, and is dropped when no run works', async () => {
  let release!: () => void;
  const taken: string[][] = [];
  const chat = new ChatSession({
    deps: {} as OrchestratorDeps,
    runner: async (_deps, _goal, options) => {
      await new Promise<void>((r) => (release = r));
      taken.push(options.inbox!.take());
      return { status: 'finished', transcript: [] } as unknown as Awaited<ReturnType<NonNullable<ConstructorParameters<typeof ChatSession>[0]['runner']>>>;
    },
  });
  assert.equal(chat.note('tests passed'), false, 'no run: nothing to tell');
  const sent = chat.send('fix it');
  assert.equal(sent.kind, 'started');
  await new Promise((r) => setImmediate(r));
  assert.equal(chat.note('  '), false, 'an empty note is no message');
  assert.equal(chat.note('tests FAILED (run on save of a.ts)'), true);
  release();
  await (sent as { outcome: Promise<unknown> }).outcome;
  assert.deepEqual(taken, [['tests FAILED (run on save of a.ts)']]);
});

test('typed during the last step: the message starts the next run; a host note alone starts nothing', async () => {
  const goals: string[] = [];
  let chat: ChatSession;
  let first = true;
  const runner = async (_deps: OrchestratorDeps, goal: string) => {
    goals.push(goal);
    if (first) {
      first = false;
      // The run's last step: the model has answered; the user types, the host adds a test result.
      chat.note('[PatchPilot] tests passed after a save');
      assert.equal(chat.send('one more thing').kind, 'queued');
    }
    return { status: 'finished', reason: 'done', steps: 1, transcript: [] } as unknown as Awaited<
      ReturnType<NonNullable<ConstructorParameters<typeof ChatSession>[0]['runner']>>
    >;
  };
  chat = new ChatSession({ deps: {} as OrchestratorDeps, runner });
  const r = chat.send('first goal');
  assert.equal(r.kind, 'started');
  await chat.whenIdle();
  assert.deepEqual(goals, ['first goal', 'one more thing']);

  // A note with no typed message: no run follows.
  goals.length = 0;
  first = true;
  const runner2 = async (_deps: OrchestratorDeps, goal: string) => {
    goals.push(goal);
    if (goals.length === 1) chat.note('[PatchPilot] tests failed after a save');
    return { status: 'finished', reason: 'done', steps: 1, transcript: [] } as never;
  };
  chat = new ChatSession({ deps: {} as OrchestratorDeps, runner: runner2 });
  chat.send('goal');
  await chat.whenIdle();
  assert.deepEqual(goals, ['goal']);
});

test('New Chat during a run: the stopped run does not bring its conversation back, and a message sent meanwhile starts the new chat', async () => {
  const seen: { goal: string; earlier: number }[] = [];
  let releaseFirst!: () => void;
  const runner = async (_deps: OrchestratorDeps, goal: string, options: { earlier?: readonly unknown[]; signal?: AbortSignal }) => {
    seen.push({ goal, earlier: options.earlier?.length ?? 0 });
    if (goal === 'old secret') await new Promise<void>((r) => (releaseFirst = r)); // winds down only when released
    const transcript = [...(options.earlier ?? []), { role: 'user', content: goal }, { role: 'assistant', content: `answer to ${goal}` }];
    return { status: options.signal?.aborted ? 'cancelled' : 'finished', reason: 'done', steps: 1, transcript } as never;
  };
  const chat = new ChatSession({ deps: {} as OrchestratorDeps, runner });
  chat.send('old secret');
  await new Promise((r) => setImmediate(r));
  chat.reset();
  // Sent while the stopped run still winds down: it waits, then starts the new chat's first run.
  assert.equal(chat.send('fresh start').kind, 'queued');
  releaseFirst();
  await chat.whenIdle();
  assert.deepEqual(seen, [
    { goal: 'old secret', earlier: 0 },
    { goal: 'fresh start', earlier: 0 },
  ]);
  assert.deepEqual(
    chat.earlier.map((m) => m.content),
    ['fresh start', 'answer to fresh start'],
  );
});

test('a message sent after Stop, while the run winds down, is not lost: it starts the next run', async () => {
  const goals: string[] = [];
  let release!: () => void;
  const chat = new ChatSession({
    deps: {} as OrchestratorDeps,
    runner: async (_deps, goal) => {
      goals.push(goal);
      if (goals.length === 1) await new Promise<void>((r) => (release = r));
      return { status: 'finished', reason: 'done', steps: 1, transcript: [] } as never;
    },
  });
  chat.send('first');
  await new Promise((r) => setImmediate(r));
  assert.equal(chat.send('queued before stop').kind, 'queued');
  assert.equal(chat.stop(), true);
  assert.equal(chat.send('after stop').kind, 'queued');
  release();
  await chat.whenIdle();
  assert.deepEqual(goals, ['first', 'after stop'], 'Stop drops what was queued before it, not what came after');
});
