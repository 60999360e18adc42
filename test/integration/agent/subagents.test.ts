// spawn_subagent with the real orchestrator, ModelClient, history store and a scripted model server
// over HTTP whose subagent replies come after a fixed delay (routed by the subagent prompt, since
// parallel requests arrive in any order). Parallelism, the concurrency limit, usage added to the
// parent, child runs in the history, cancellation, read-only tools by default.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import { openHistoryStore } from '../../../src/core/history';
import { ModelClient } from '../../../src/core/llm';
import { Orchestrator, type RunOutcome } from '../../../src/core/orchestrator';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { createToolRegistry } from '../../../src/core/tools';
import { spawnSubagentTool } from '../../../src/core/tools/spawnSubagent';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ScriptedModelServer, type ScriptedReply, type ScriptedTurn } from '../../support/scriptedModel';
import { ScriptedApprover, gitInit, tempWorkspace } from '../../unit/tools/helpers';
import { BUGGY, call } from '../../unit/orchestrator/harness';
import { historyRuns, runCli, skipWithoutBuild } from './support';

const SUBAGENT_PROMPT = 'You are a PatchPilot subagent';
const DELAY_MS = Number(process.env.PP_SUBAGENT_DELAY_MS ?? 1_500);

const isSubagent = (body: Record<string, any>) => typeof body.messages?.[0]?.content === 'string' && body.messages[0].content.startsWith(SUBAGENT_PROMPT);
const taskOf = (body: Record<string, any>) => String(body.messages?.[1]?.content ?? '');

interface Result {
  outcome: RunOutcome;
  events: AgentEvent[];
  server: ScriptedModelServer;
  runs: Awaited<ReturnType<Awaited<ReturnType<typeof openHistoryStore>>['listRuns']>>;
  /** From the first subagent's start to the last one's end, in ms. */
  spawnMs: number;
}

async function runWithSubagents(
  parentTurns: ScriptedTurn[],
  options: {
    subagentReply?: (body: Record<string, any>) => ScriptedReply;
    maxConcurrent?: number;
    signal?: AbortSignal;
    mode?: PatchPilotSettings['approval']['mode'];
    onServer?: (server: ScriptedModelServer) => void;
  } = {},
): Promise<Result> {
  const ws = tempWorkspace(BUGGY);
  gitInit(ws.root);
  const server = await ScriptedModelServer.start({
    turns: parentTurns,
    routes: [
      {
        match: isSubagent,
        reply:
          options.subagentReply ??
          ((body) => ({
            delayMs: DELAY_MS,
            toolCalls: [call('finish', { summary: `answer to: ${taskOf(body)}` })],
            usage: { promptTokens: 100, completionTokens: 10 },
          })),
      },
    ],
  });
  options.onServer?.(server);
  const history = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
  try {
    const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
    settings.approval.mode = options.mode ?? 'auto-edit';
    settings.subagents.maxConcurrent = options.maxConcurrent ?? 4;
    const tools = createToolRegistry({ history: true });
    tools.register(spawnSubagentTool);
    const events: AgentEvent[] = [];
    const outcome = await new Orchestrator({
      root: ws.root,
      settings,
      model: new ModelClient({ baseUrl: server.baseUrl, model: 'scripted-model', idleTimeoutMs: 5_000, firstChunkTimeoutMs: 5_000 }, { random: () => 0 }),
      tools,
      approver: new ScriptedApprover(),
      tasks: new NodeTaskRunner(),
      history,
      patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }),
      fs: new NodeWorkspaceFs(ws.root),
      onEvent: (e) => events.push({ ...e, at: Date.now() } as unknown as AgentEvent),
    }).run('answer four questions', { signal: options.signal });
    const stamps = (type: string) => events.filter((e) => e.type === type).map((e) => (e as unknown as { at: number }).at);
    const started = stamps('subagent/started');
    const finished = stamps('subagent/finished');
    return {
      outcome,
      events,
      server,
      runs: await history.listRuns(),
      spawnMs: started.length && finished.length ? Math.max(...finished) - Math.min(...started) : 0,
    };
  } finally {
    await history.close();
    await server.close();
    ws.cleanup();
  }
}

const spawnTurn = (tasks: string[]): ScriptedTurn => ({
  reply: { toolCalls: tasks.map((t) => call('spawn_subagent', { task: t })) },
  expect: { toolsInclude: ['spawn_subagent'] },
});
const finishTurn: ScriptedTurn = { reply: { toolCalls: [call('finish', { summary: 'done' })] } };

describe('spawn_subagent (orchestrator, scripted model over HTTP)', () => {
  test("four subagents in one reply work in parallel: well under four times one subagent's time", async () => {
    const one = await runWithSubagents([spawnTurn(['question 1']), finishTurn]);
    const four = await runWithSubagents([spawnTurn(['question 1', 'question 2', 'question 3', 'question 4']), finishTurn]);
    assert.equal(four.outcome.status, 'finished', four.outcome.reason);
    const ratio = four.spawnMs / one.spawnMs;
    // The figure for the README; the assertion only says that they overlapped (generous for a loaded machine).
    process.stdout.write(
      `# subagents: 1 took ${one.spawnMs} ms, 4 in parallel took ${four.spawnMs} ms, ratio ${ratio.toFixed(2)} (model delay ${DELAY_MS} ms)\n`,
    );
    assert.ok(ratio < 3, `4 subagents took ${ratio.toFixed(2)}x one`);
    assert.equal(four.server.maxInFlight, 4, 'all four asked the model at the same time');
  });

  test("each answer is its call's result; usage adds up in the parent; each subagent is a child run in the history", async () => {
    const tasks = ['find the add function', 'find its test'];
    const r = await runWithSubagents([
      spawnTurn(tasks),
      { reply: { toolCalls: [call('finish', { summary: 'done' })] }, expect: { anyMessageContains: 'answer to: find its test' } },
    ]);
    assert.equal(r.outcome.status, 'finished', r.outcome.reason);
    assert.deepEqual(r.server.mismatches, []);
    const results = r.events.filter((e) => e.type === 'tool/finished' && e.name === 'spawn_subagent') as Extract<AgentEvent, { type: 'tool/finished' }>[];
    assert.deepEqual(results.map((x) => x.output).sort(), tasks.map((t) => `answer to: ${t}`).sort());
    // Two parent requests and one per subagent.
    assert.equal(r.outcome.usage.requests, 4);
    assert.equal(r.outcome.usageByRole.reasoning.requests, 4);
    const parent = r.runs.find((x) => x.parentRunId === null)!;
    const children = r.runs.filter((x) => x.parentRunId !== null);
    assert.equal(parent.id, r.outcome.runId);
    assert.deepEqual(
      children.map((c) => [c.parentRunId, c.status]),
      [
        [parent.id, 'finished'],
        [parent.id, 'finished'],
      ],
    );
    assert.deepEqual(children.map((c) => c.goal).sort(), [...tasks].sort());
    assert.ok(children.every((c) => c.tokensIn === 100 && c.tokensOut === 10));
  });

  test('a subagent gets the read-only tools by default, its own context and a focused prompt; it cannot spawn another', async () => {
    const seen: Record<string, any>[] = [];
    const r = await runWithSubagents([spawnTurn(['read add.js']), finishTurn], {
      subagentReply: (body) => {
        seen.push(body);
        return { toolCalls: [call('finish', { summary: 'ok' })] };
      },
    });
    assert.equal(r.outcome.status, 'finished');
    const toolNames = (seen[0]!.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    assert.deepEqual(toolNames, ['finish', 'glob', 'grep', 'list_dir', 'read_file', 'search_history']);
    assert.ok(!toolNames.includes('propose_patch') && !toolNames.includes('spawn_subagent'));
    assert.equal(seen[0]!.messages.length, 2, 'the system prompt and the task, nothing of the parent conversation');
    assert.match(seen[0]!.messages[0].content, /only your final answer/);
  });

  test('tools: a subagent may be given write tools by name; an unknown name is refused with the list', async () => {
    const seen: Record<string, any>[] = [];
    const r = await runWithSubagents(
      [
        {
          reply: {
            toolCalls: [
              call('spawn_subagent', { task: 'fix it', tools: ['read_file', 'propose_patch'] }),
              call('spawn_subagent', { task: 'x', tools: ['rm_rf'] }),
            ],
          },
        },
        finishTurn,
      ],
      { subagentReply: (body) => (seen.push(body), { toolCalls: [call('finish', { summary: 'ok' })] }) },
    );
    assert.equal(r.outcome.status, 'finished');
    assert.deepEqual((seen[0]!.tools as { function: { name: string } }[]).map((t) => t.function.name).sort(), ['finish', 'propose_patch', 'read_file']);
    const refused = r.events.find((e) => e.type === 'tool/finished' && !e.ok) as Extract<AgentEvent, { type: 'tool/finished' }>;
    assert.match(refused.output, /no such tool for a subagent: rm_rf\. Available: read_file, list_dir/);
  });

  test('maxConcurrent bounds how many work at once', async () => {
    const r = await runWithSubagents([spawnTurn(['a', 'b', 'c', 'd', 'e']), finishTurn], { maxConcurrent: 2 });
    assert.equal(r.outcome.status, 'finished');
    assert.equal(r.server.maxInFlight, 2);
    assert.equal(r.runs.filter((x) => x.parentRunId).length, 5);
  });

  test('cancelling the parent cancels its subagents at once; their runs are recorded as cancelled', async () => {
    const controller = new AbortController();
    let started = 0;
    // Cancel once both subagents wait for the model.
    const onServer = (server: ScriptedModelServer) => {
      const poll = setInterval(() => {
        if (server.inFlight < 2) return;
        clearInterval(poll);
        started = Date.now();
        controller.abort();
      }, 20);
    };
    const r = await runWithSubagents([spawnTurn(['slow 1', 'slow 2'])], {
      signal: controller.signal,
      onServer,
      subagentReply: () => ({ delayMs: 60_000, toolCalls: [call('finish', { summary: 'too late' })] }),
    });
    assert.equal(r.outcome.status, 'cancelled');
    assert.ok(started > 0 && Date.now() - started < 10_000, 'did not wait for the slow subagents');
    const children = r.runs.filter((x) => x.parentRunId);
    assert.deepEqual(
      children.map((c) => c.status),
      ['cancelled', 'cancelled'],
    );
  });
});

describe('spawn_subagent through the built CLI', { skip: skipWithoutBuild }, () => {
  test("the subagents' answers reach the model; history lists them as child runs of the run", async () => {
    const ws = tempWorkspace(BUGGY);
    gitInit(ws.root);
    const server = await ScriptedModelServer.start({
      turns: [
        spawnTurn(['where is add defined?', 'where is add tested?']),
        { reply: { toolCalls: [call('finish', { summary: 'done' })] }, expect: { anyMessageContains: 'answer to: where is add tested?' } },
      ],
      routes: [{ match: isSubagent, reply: (body) => ({ delayMs: 200, toolCalls: [call('finish', { summary: `answer to: ${taskOf(body)}` })] }) }],
    });
    try {
      const r = await runCli(['--goal', 'ask two questions', '--workspace', ws.root, '--base-url', server.baseUrl, '--model', 'scripted-model']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.match(r.stderr, /subagent 1 started: where is add defined\?/);
      assert.match(r.stderr, /subagent 2 finished after 1 step/);
      const runs = await historyRuns(ws.root);
      const parent = runs.find((x) => !('parentRunId' in x) || (x as { parentRunId: string | null }).parentRunId === null)!;
      assert.deepEqual(
        runs
          .filter((x) => (x as { parentRunId?: string | null }).parentRunId === parent.id)
          .map((x) => x.goal)
          .sort(),
        ['where is add defined?', 'where is add tested?'],
      );
      const text = await runCli(['list', '--cwd', ws.root], { command: 'history' });
      assert.match(text.stdout, new RegExp(`where is add tested\\?  \\(subagent of ${parent.id.slice(0, 8)}\\)`));
    } finally {
      await server.close();
      ws.cleanup();
    }
  });
});
