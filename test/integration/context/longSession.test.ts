// A 200-step chat session under an 8k-token prompt budget, end to end with real parts: the
// scripted model server over HTTP (the reasoning model replays 200 tool-calling steps; the fast
// model answers every summary request), the real ModelClient, ChatSession and Orchestrator, real
// files in a git repository, a real sql.js history on disk, the bundled and a workspace skill,
// memory. Four goals of 50 steps, a message sent mid-run, parallel calls, a huge file, a broken
// call. Every request is checked: within the budget (as the server counts it: messages and tool
// schemas), every tool call directly followed by its result. Prints the figures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import { openHistoryStore } from '../../../src/core/history';
import { ModelClient } from '../../../src/core/llm';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { createToolRegistry } from '../../../src/core/tools';
import { ChatSession } from '../../../src/core/session';
import { TokenCalibration } from '../../../src/core/context/tokenCounter';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ScriptedModelServer, type ScriptedToolCall, type ScriptedTurn } from '../../support/scriptedModel';
import { ScriptedApprover, gitInit, tempWorkspace } from '../../unit/tools/helpers';

const BUDGET = 8_000;
const GOALS = ['map the configuration loading', 'find where dates are parsed', 'list the public functions of the util modules', 'summarize the error handling'];
const STEPS_PER_GOAL = 50;
const MID_RUN_MESSAGE = 'also note which modules have no tests';
const SKILLS = path.resolve(__dirname, '../../../skills');

function sourceFile(i: number, kind: Kind): string {
  const size = [900, 2_600, 6_000, 14_000][i % 4]!;
  const lines: string[] = [`// module ${i}: ${i % 3 === 0 ? 'configuration' : i % 3 === 1 ? 'dates' : 'errors'}`];
  for (let j = 0; lines.join('\n').length < size; j++) {
    if (kind === 'code') lines.push(`export function fn${i}_${j}(value: number): number {\n  return value * ${j} + ${i}; // keeps the ${j}th case\n}`);
    // What chars/4 undercounts most: quotes and backslashes (escaped on the wire), CJK, short lines, tabs.
    else if (j % 3 === 0) lines.push(`export const s${j} = "C:\\\\dir\\\\"q\\" ${j}";\t// "quoted"`);
    else if (j % 3 === 1) lines.push(`// 設定ファイルを読み込む関数 ${j}：日付と時刻の処理`);
    else lines.push('}\n{\n"\n\t');
  }
  return `${lines.join('\n')}\n`;
}

type Kind = 'code' | 'hard';

function workspaceFiles(kind: Kind): Record<string, string> {
  const files: Record<string, string> = {
    'AGENTS.md': '# Agents\nAnswer with file paths. Run nothing that writes.\n',
    '.patchpilot/rules/style.md': 'Prefer named exports.\n',
    '.patchpilot/skills/survey/SKILL.md':
      '---\nname: survey\ndescription: Survey a codebase module by module.\n---\nList, then read each module once, then write down what you found.\n',
    // 300 KB of one file: read_file returns 100,000 characters, the context takes a share of the budget.
    'data/huge.txt': `${'huge line with some words in it\n'.repeat(10_000)}`,
  };
  for (let i = 0; i < 40; i++) files[`src/mod${i}.ts`] = sourceFile(i, kind);
  return files;
}

/** The reasoning model's 50 steps for goal g: mostly reads, some parallel, a few of every other tool. */
function turnsFor(g: number, steps: number, onTurn: (k: number) => void): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  const read = (i: number): ScriptedToolCall => ({ name: 'read_file', arguments: { path: `src/mod${i % 40}.ts` } });
  for (let k = 0; k < steps - 1; k++) {
    const n = g * steps + k;
    let calls: ScriptedToolCall[];
    if (k === 3) calls = [{ name: 'load_skill', arguments: { name: g % 2 ? 'survey' : 'review-before-finish' } }];
    else if (k === 7) calls = [{ name: 'remember', arguments: { fact: `Goal ${g}: modules cycle configuration, dates, errors by index.` } }];
    else if (k === 11) calls = [{ name: 'read_file', arguments: { path: 'data/huge.txt' } }];
    else if (k === 13) calls = [{ name: 'grep', arguments: { pattern: `fn${n % 40}_1\\b` } }];
    else if (k === 17)
      calls = [{ name: 'read_file', arguments: '{"path": "src/mod1.ts"' }]; // broken JSON
    else if (k === 19) calls = [{ name: 'search_history', arguments: { query: GOALS[g]! } }];
    else if (k === 23) calls = [{ name: 'list_dir', arguments: { path: 'src' } }];
    else if (k % 5 === 0) calls = [read(n), read(n + 7), read(n + 13)];
    else if (k % 3 === 0) calls = [read(n), { name: 'glob', arguments: { pattern: `src/mod${n % 10}*.ts` } }];
    else calls = [read(n)];
    turns.push({
      label: `goal ${g} step ${k + 1}`,
      reply: { text: k % 4 === 0 ? `Step ${k + 1}: looking further.` : '', toolCalls: calls },
      expect: { model: 'scripted-model' },
      check: () => onTurn(n),
    });
  }
  turns.push({
    label: `goal ${g} finish`,
    reply: { toolCalls: [{ name: 'finish', arguments: { summary: `Goal ${g} done: read the modules.` } }] },
    expect: { model: 'scripted-model' },
  });
  return turns;
}

type WireMessage = { role: string; content: string | null; tool_calls?: { id: string }[]; tool_call_id?: string };

/** The problem with a request's pairing, or undefined. */
function pairProblem(messages: WireMessage[]): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') return `message ${i}: tool result ${m.tool_call_id} without its call right before it`;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const open = new Set(m.tool_calls.map((c) => c.id));
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === 'tool'; j++)
      if (!open.delete(messages[j]!.tool_call_id!)) return `message ${j}: result for no open call`;
    if (open.size) return `message ${i}: call(s) ${[...open].join(', ')} without a result`;
    i = j - 1;
  }
  return undefined;
}

/** Prompt tokens as the scripted server reports them (like a real server: messages and tool schemas). */
const requestTokens = (body: { messages: unknown; tools?: unknown }) =>
  Math.ceil((JSON.stringify(body.messages).length + (body.tools ? JSON.stringify(body.tools).length : 0)) / 4);

async function longSession(kind: Kind, goals: readonly string[], steps: number): Promise<Record<string, number>> {
  const STEPS_PER_GOAL = steps;
  const GOALS = goals;
  const ws = tempWorkspace(workspaceFiles(kind));
  gitInit(ws.root);
  let session: ChatSession | undefined;
  const onTurn = (n: number) => {
    if (n === STEPS_PER_GOAL + 10) session!.send(MID_RUN_MESSAGE); // goal 1, mid-run: queued for the next step
  };
  const turns = GOALS.flatMap((_, g) => turnsFor(g, STEPS_PER_GOAL, onTurn));
  const summaryReply =
    'Read several modules under src/: configuration, dates and errors alternate by index; functions fnI_J multiply by J and add I. Nothing was changed.';
  const server = await ScriptedModelServer.start({ turns, modelReplies: { 'fast-model': { text: summaryReply } } });
  const history = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false, createStateFolder: true });
  const events: AgentEvent[] = [];
  try {
    const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
    settings.approval.mode = 'auto-edit';
    settings.limits.maxSteps = STEPS_PER_GOAL + 5;
    settings.limits.maxConsecutiveFailures = 5;
    settings.context.maxTokens = BUDGET;
    settings.llm.fastModel = 'fast-model';
    const model = new ModelClient(
      { baseUrl: server.baseUrl, model: 'scripted-model', fastModel: 'fast-model', idleTimeoutMs: 10_000, firstChunkTimeoutMs: 10_000 },
      { random: () => 0 },
    );
    session = new ChatSession({
      deps: {
        root: ws.root,
        settings,
        model,
        tools: createToolRegistry({ history: true, memory: true, skills: true }),
        approver: new ScriptedApprover(),
        tasks: new NodeTaskRunner(),
        history,
        patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }),
        fs: new NodeWorkspaceFs(ws.root),
        bundledSkillsDir: SKILLS,
        calibration: new TokenCalibration(),
        onEvent: (e) => events.push(e),
      },
    });
    const outcomes = [];
    for (const goal of GOALS) {
      const sent: ReturnType<ChatSession['send']> = session.send(goal);
      assert.equal(sent.kind, 'started');
      if (sent.kind === 'started') outcomes.push(await sent.outcome);
    }
    assert.deepEqual(server.mismatches, []);
    assert.deepEqual(
      outcomes.map((o) => [o.status, o.steps]),
      GOALS.map(() => ['finished', STEPS_PER_GOAL]),
    );

    const reasoning = server.chatRequests.filter((r) => r.body.model === 'scripted-model');
    const fast = server.chatRequests.filter((r) => r.body.model === 'fast-model');
    assert.equal(reasoning.length, GOALS.length * STEPS_PER_GOAL);
    const sizes = reasoning.map((r) => requestTokens(r.body));
    const largest = Math.max(...sizes);
    const largestFast = Math.max(0, ...fast.map((r) => requestTokens(r.body)));
    // Within the budget, as the server counts: every request of the agent and of the summarizer.
    assert.ok(largest <= BUDGET, `the largest request had ${largest} tokens`);
    assert.ok(largestFast <= BUDGET, `the largest summary request had ${largestFast} tokens`);
    // The count never below what the server reported: the budget holds because the count does not undercount.
    const usage = events.filter((e): e is Extract<AgentEvent, { type: 'usage' }> => e.type === 'usage' && e.countedPromptTokens !== undefined);
    assert.equal(usage.length, reasoning.length);
    const overcount = usage.map((u) => u.countedPromptTokens! - u.promptTokens);
    assert.ok(Math.min(...overcount) >= 0, `counted ${Math.min(...overcount)} tokens under the server's figure`);
    assert.deepEqual(
      usage.map((u) => u.promptTokens),
      sizes,
    );
    // No call separated from its result, in any request.
    for (const [i, r] of reasoning.entries()) assert.equal(pairProblem(r.body.messages), undefined, `request ${i}`);

    // Every user message stays: the run's goal and the message sent mid-run in each later request of that run;
    // the earlier goals of the chat in the follow-ups (as long as the budget has room).
    // A goal's message also carries the workspace's state before it (context/liveState.ts): a message holds the text.
    const messageTexts = (i: number) => (reasoning[i]!.body.messages as WireMessage[]).map((m) => m.content ?? '');
    const contents = (i: number) => ({ includes: (text: string) => messageTexts(i).some((c) => c === text || c.endsWith(`\n${text}`)) });
    for (let g = 0; g < GOALS.length; g++) {
      for (let k = 0; k < STEPS_PER_GOAL; k++) assert.ok(contents(g * STEPS_PER_GOAL + k).includes(GOALS[g]!), `goal ${g} missing from its step ${k + 1}`);
    }
    const delivered = reasoning.findIndex((r) => (r.body.messages as WireMessage[]).some((m) => m.content === MID_RUN_MESSAGE));
    assert.equal(delivered, STEPS_PER_GOAL + 11);
    for (let i = delivered; i < 2 * STEPS_PER_GOAL; i++) assert.ok(contents(i).includes(MID_RUN_MESSAGE), `request ${i}`);
    assert.ok(contents((GOALS.length - 1) * STEPS_PER_GOAL).includes(GOALS[0]!), "the first goal is still in the last run's context");

    // Summaries: shown as events, recorded in the history with their text, written by the fast model.
    const compactions = events.filter((e): e is Extract<AgentEvent, { type: 'context/summarized' }> => e.type === 'context/summarized');
    assert.ok(compactions.length >= 10, `${compactions.length} compactions`);
    for (const c of compactions) assert.ok(c.afterTokens <= BUDGET && c.afterTokens < c.beforeTokens, JSON.stringify(c));
    assert.ok(compactions.every((c) => !c.digest));
    assert.ok(compactions.filter((c) => c.summarizedMessages > 0).every((c) => c.model === 'fast-model'));
    await history.flush();
    // A follow-up records its earlier turns as a reference to the run that recorded them, not a copy.
    const earlierStep = (await history.getRun(outcomes[1]!.runId!))!.steps.find((s) => s.tool === 'context/earlier');
    assert.deepEqual(earlierStep?.arguments, { fromRun: outcomes[0]!.runId });
    const recorded = [];
    for (const o of outcomes) recorded.push(...(await history.getRun(o.runId!))!.steps.filter((s) => s.tool === 'context/summary'));
    assert.equal(recorded.length, compactions.length);
    assert.match(recorded[0]!.text!, /^context summarized: [\d.]+k -> [\d.]+k? tokens \(budget 8k\)$/);
    assert.ok(recorded.some((s) => JSON.stringify(s.arguments).includes(summaryReply)));
    assert.ok(
      reasoning.some((r) => (r.body.messages as WireMessage[]).some((m) => m.content?.includes(summaryReply))),
      'the summaries reach the model',
    );

    // Memory and skills took part: the facts in MEMORY.md and in the next runs' goal messages (goalNotes.ts), the skills in the system prompt.
    const memory = readFileSync(path.join(ws.root, '.patchpilot/MEMORY.md'), 'utf8');
    for (let g = 0; g < GOALS.length; g++) assert.match(memory, new RegExp(`- Goal ${g}: modules cycle`));
    assert.match(
      (reasoning[STEPS_PER_GOAL]!.body.messages as WireMessage[]).filter((m) => m.role === 'user').at(-1)!.content!,
      /<memory source="\.patchpilot\/MEMORY\.md">[\s\S]*- Goal 0: modules cycle configuration, dates, errors by index\./,
    );
    assert.match(
      (reasoning[0]!.body.messages as WireMessage[])[0]!.content!,
      /- review-before-finish: Review the whole diff[\s\S]*- survey: Survey a codebase/,
    );

    const medianRequestTokens = [...sizes].sort((a, b) => a - b)[Math.floor(sizes.length / 2)];
    assert.ok(medianRequestTokens !== undefined, 'the model got at least one request');
    const figures = {
      requests: reasoning.length,
      largestRequestTokens: largest,
      medianRequestTokens,
      budget: BUDGET,
      fixedPromptTokens: requestTokens({ messages: [(reasoning[0]!.body.messages as WireMessage[])[0]], tools: reasoning[0]!.body.tools }),
      compactions: compactions.length,
      summaryRequests: fast.length,
      largestSummaryRequestTokens: largestFast,
      droppedSummaries: compactions.reduce((n, c) => n + c.droppedSummaries, 0),
      cutMessages: compactions.reduce((n, c) => n + c.cutMessages, 0),
      largestRequestBytes: Math.max(...reasoning.map((r) => JSON.stringify(r.body).length)),
      countedOverReportedMin: Math.min(...overcount),
      countedOverReportedMax: Math.max(...overcount),
    };
    console.log(`long session (${kind} content, ${reasoning.length} steps): ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await history.close();
    await server.close();
    ws.cleanup();
  }
}

test('a 200-step session stays within an 8k-token budget: summaries recorded, no call separated from its result', { timeout: 600_000 }, async () => {
  const figures = await longSession('code', GOALS, STEPS_PER_GOAL);
  assert.equal(figures.requests, 200);
});

test('the same on content chars/4 undercounts (quotes, backslashes, CJK, short lines): still within the budget', { timeout: 600_000 }, async () => {
  await longSession('hard', GOALS.slice(0, 2), 40);
});
