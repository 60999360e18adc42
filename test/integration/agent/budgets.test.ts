// End to end through the built `patchpilot run` against the scripted model server: spend limits that
// stop a run (tokens, cost with a subagent working, the workspace's day across two runs), the loop
// guard, and `patchpilot history show` / `history usage` listing each request's usage by source.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedReply, ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo, type AgentEventLine } from './support';

const MODEL = 'scripted-model';
// The test's own workspace sets prices: trusted, since a price is a setting an untrusted workspace may not set (workspaceRules.ts).
const model = (server: { baseUrl: string }) => ['--base-url', server.baseUrl, '--model', MODEL, '--trust-workspace'];
/** $1 per million tokens in and out: 10,000 tokens cost $0.01. */
const PRICED = { 'patchpilot.llm.prices': { [MODEL]: { input: 1, output: 1 } } };
const settings = (values: Record<string, unknown>) => ({ ...BUGGY, '.vscode/settings.json': JSON.stringify(values) });
const SUBAGENT_PROMPT = 'You are a PatchPilot subagent';
const isSubagent = (body: Record<string, any>) => typeof body.messages?.[0]?.content === 'string' && body.messages[0].content.startsWith(SUBAGENT_PROMPT);
const finished = (stdout: string) => events(stdout).find((e) => e.type === 'run/finished') as AgentEventLine & Record<string, any>;

async function historyShow(
  root: string,
  runId: string,
): Promise<{ text: string; json: { usage: { source: string; requests: number; costUsd: number | null }[] } }> {
  const text = await runCli(['show', runId, '--cwd', root], { command: 'history' });
  assert.equal(text.code, 0, text.stderr);
  const json = await runCli(['show', runId, '--cwd', root, '--json'], { command: 'history' });
  assert.equal(json.code, 0, json.stderr);
  return { text: text.stdout, json: JSON.parse(json.stdout) };
}

describe('patchpilot run: budgets that stop the run', { skip: skipWithoutBuild }, () => {
  test('--max-tokens: the request that would cross the budget is not sent; the run ends stopped, naming the limit and the spend', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })], usage: { promptTokens: 50_000, completionTokens: 100 } } },
      { reply: { toolCalls: [call('finish', { summary: 'never reached' })] } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'read add', '--workspace', root, '--approve', 'auto-edit', '--max-tokens', '52000', ...model(server), '--json']);
      assert.equal(r.code, 6, r.stderr);
      assert.equal(server.chatRequests.length, 1, 'the second request was never sent');
      const end = finished(r.stdout);
      assert.equal(end.status, 'stopped');
      assert.equal(end.stoppedBy, 'budget');
      assert.match(
        end.reason,
        /the next request \(about [\d,]+ prompt tokens\) was not sent: it would cross the token budget of 52,000 \(patchpilot\.limits\.maxTokens\); spent 50,100 tokens in 1 request/,
      );
      const human = await runCli(['show', 'last', '--cwd', root], { command: 'history' });
      assert.match(human.stdout, /status: {2}stopped after \d steps?/);
    });
  });

  test('--max-cost-usd with a subagent working: its requests count in the parent, the budget stops it mid-task, history show lists usage by source', async () => {
    // The subagent reads a file again and again; at $10 per million tokens each request of about 2,000 tokens costs about $0.02.
    const subagentReply = (): ScriptedReply => ({ toolCalls: [call('read_file', { path: 'add.js' })] });
    await withRepo(
      {
        turns: [
          { reply: { toolCalls: [call('spawn_subagent', { task: 'read add.js until told to stop' })] } },
          { reply: { toolCalls: [call('finish', { summary: 'never reached' })] } },
        ],
        routes: [{ match: isSubagent, reply: subagentReply }],
      },
      async (root, server) => {
        const r = await runCli(['--goal', 'delegate', '--workspace', root, '--approve', 'auto-edit', '--max-cost-usd', '0.07', ...model(server), '--json']);
        assert.equal(r.code, 6, r.stderr);
        const ev = events(r.stdout);
        const sub = ev.find((e) => e.type === 'subagent/finished') as Record<string, any> | undefined;
        assert.ok(sub, 'the subagent ended');
        assert.equal(sub.status, 'cancelled', 'the parent budget stopped the subagent');
        const end = finished(r.stdout);
        assert.deepEqual([end.status, end.stoppedBy], ['stopped', 'budget']);
        assert.match(end.reason, /the cost budget of \$0\.0700 \(patchpilot\.limits\.maxCostUsd\); spent [\d,]+ tokens and \$0\.0\d+ in \d+ requests/);
        // The parent's second turn was never asked for: the stop came while the subagent worked.
        const parentRequests = server.chatRequests.filter((q) => !isSubagent(q.body as Record<string, any>));
        assert.equal(
          parentRequests.length,
          1,
          r.stdout
            .split('\n')
            .filter((l) => !l.includes('delta'))
            .join('\n'),
        );
        const subRequests = server.chatRequests.length - parentRequests.length;
        assert.ok(subRequests >= 2 && subRequests <= 4, `subagent requests: ${subRequests}`);

        const runId = String(ev.find((e) => e.type === 'run/started')!.runId);
        const shown = await historyShow(root, runId);
        const bySource = Object.fromEntries(shown.json.usage.map((u) => [u.source, u]));
        assert.equal(bySource.main?.requests, 1);
        assert.equal(bySource['subagent 1']?.requests, subRequests);
        const total = shown.json.usage.reduce((n, u) => n + (u.costUsd ?? 0), 0);
        assert.ok(total <= 0.07 || end.reason.startsWith('a reply crossed'), `spent $${total} against a $0.07 budget: ${end.reason}`);
        assert.match(shown.text, /usage by source[^\n]*\n {2}main +1 req +[\d,]+ in +[\d,]+ out +\$0\.0\d+\n {2}subagent 1 +\d req/);
        assert.match(shown.text, /\n {2}total +\d req/);
      },
      settings({ 'patchpilot.llm.prices': { [MODEL]: { input: 10, output: 10 } } }),
    );
  });

  test('patchpilot.limits.dailyCostUsd: what the first run spent today counts; the second run stops before its first request', async () => {
    const turns: ScriptedTurn[] = [{ reply: { toolCalls: [call('finish', { summary: 'done' })], usage: { promptTokens: 20_000, completionTokens: 0 } } }];
    await withRepo(
      { turns: [...turns, ...turns], modelReplies: { 'fast-model': { text: 'a summary', usage: { promptTokens: 100, completionTokens: 10 } } } },
      async (root, server) => {
        const first = await runCli(['--goal', 'one', '--workspace', root, '--approve', 'auto-edit', '--fast-model', 'fast-model', ...model(server), '--json']);
        assert.equal(first.code, 0, first.stderr);
        assert.equal(finished(first.stdout).status, 'finished');
        const served = server.chatRequests.length;

        const second = await runCli(['--goal', 'two', '--workspace', root, '--approve', 'auto-edit', ...model(server), '--json']);
        assert.equal(second.code, 6, second.stderr);
        assert.equal(server.chatRequests.length, served, 'the second run sent nothing');
        const end = finished(second.stdout);
        assert.deepEqual([end.status, end.stoppedBy], ['stopped', 'budget']);
        assert.match(
          end.reason,
          /would cross the daily budget of \$0\.0210 for this workspace \(patchpilot\.limits\.dailyCostUsd\); spent 0 tokens in 0 requests \(earlier runs today: \$0\.0200\)/,
        );

        const days = await runCli(['usage', '--cwd', root, '--json'], { command: 'history' });
        assert.equal(days.code, 0, days.stderr);
        const [today] = JSON.parse(days.stdout) as { day: string; sources: { source: string; requests: number }[]; costUsd: number }[];
        assert.ok(today, days.stdout);
        assert.deepEqual(today.sources.map((s) => s.source).sort(), ['fast', 'main']);
        assert.ok(Math.abs(today.costUsd - 0.02) < 0.001, String(today.costUsd));
        const text = await runCli(['usage', '--cwd', root], { command: 'history' });
        assert.match(text.stdout, /^\d{4}-\d\d-\d\d {2}20,\d{3} tokens {2}\$0\.02\d+\n {4}main/);
      },
      settings({ ...PRICED, 'patchpilot.limits.dailyCostUsd': 0.021 }),
    );
  });
});

describe('patchpilot run: the loop guard', { skip: skipWithoutBuild }, () => {
  test('the same failing call (same tool, arguments, failure) made 3 times stops the run, even with other work in between', async () => {
    const missing = () => ({ reply: { toolCalls: [call('read_file', { path: 'missing.js' })] } });
    const turns: ScriptedTurn[] = [
      missing(),
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      missing(),
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      missing(),
      { reply: { toolCalls: [call('finish', { summary: 'never reached' })] } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'read', '--workspace', root, '--approve', 'auto-edit', ...model(server), '--json']);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(server.chatRequests.length, 5);
      const end = finished(r.stdout);
      assert.deepEqual([end.status, end.stoppedBy], ['stopped', 'repeated-failure']);
      assert.match(
        end.reason,
        /the same failing tool call was made 3 times: read_file \{"path":"missing\.js"\} -> .*\(patchpilot\.limits\.maxRepeatedFailures is 3\)/,
      );
    });
  });
});
