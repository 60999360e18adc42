// A prompt that caches, through the built CLI (issue 30, item 6): three goals of one session, the
// second and third in new processes with `--resume last`, the workspace changed between them and a
// nested AGENTS.md brought in by the first read. Every request's prompt (tools, then messages)
// begins with the previous request's, byte for byte, up to the new messages: nothing volatile in the
// system prompt or the tool list. And cached prompt tokens are reported per run (item 3) for both
// wire protocols: in the --json result event and in the history.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { AnthropicServer, reply } from '../../support/anthropicServer';
import { tempWorkspace } from '../../unit/tools/helpers';
import { REPORTED_USAGE, partingPoint, threeMessageConversation } from './cliConversation';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');
const skip = existsSync(CLI) ? false : 'run npm run build first';

type Event = { type: string; [k: string]: any };

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATCHPILOT_API_KEY: 'sk-ant-test' };
  delete env.NODE_TEST_CONTEXT;
  delete env.ANTHROPIC_API_KEY;
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a prompt that caches, through the CLI', { skip }, () => {
  test('three goals (--resume last): each request begins with the previous one byte for byte; cached tokens per run in the result and the history', async () => {
    const { rows, prompts, bodies, goals } = await threeMessageConversation();
    assert.deepEqual(
      rows.map((r) => r.goal),
      [1, 1, 1, 2, 2, 3],
    );
    for (let i = 1; i < prompts.length; i++) {
      // The previous prompt without its closing `]}`: everything it sent, then the new messages.
      const before = prompts[i - 1]!.slice(0, -2);
      const p = partingPoint(before, prompts[i]!);
      assert.ok(
        prompts[i]!.startsWith(before),
        `request ${i + 1} parts from request ${i} at byte ${p.at}: was ${JSON.stringify(p.was)}, now ${JSON.stringify(p.now)}`,
      );
    }
    for (const body of bodies) {
      assert.deepEqual(body.tools, bodies[0]!.tools, 'the tool list never changes');
      assert.equal(body.messages[0]!.content, bodies[0]!.messages[0]!.content, 'the system prompt never changes');
    }
    // The nested rules file came with the read that touched src/, the live state with each goal.
    assert.doesNotMatch(String(bodies[0]!.messages[0]!.content), /one-line comment|uncommitted|total\.js/);
    const second = bodies[3]!.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    assert.match(second.at(-1)!, /<workspace-state>\ngit: branch main at [0-9a-f]{12}; 2 file\(s\) with uncommitted changes/);
    assert.ok(
      bodies[1]!.messages.some((m) => m.role === 'tool' && String(m.content).includes('## src/AGENTS.md (folder src/ touched)\nFunctions in src/ keep')),
    );

    const perGoal = [3, 2, 1];
    goals.forEach((g, i) => {
      const finished = g.events.find((e) => e.type === 'run/finished') as Event | undefined;
      assert.equal(finished?.usage?.reasoning?.cachedTokens, perGoal[i]! * REPORTED_USAGE.cachedTokens, `goal ${i + 1}: the result event's cached tokens`);
      const main = g.history.usage.find((u) => u.source === 'main');
      assert.equal(main?.cachedTokens, perGoal[i]! * REPORTED_USAGE.cachedTokens, `goal ${i + 1}: the history's cached tokens`);
    });
  });

  test('a remember in goal one and another approval mode from goal two: the system prompt stays byte for byte; the next goal states both', async () => {
    const { rows, prompts, bodies } = await threeMessageConversation('memory-and-mode');
    assert.deepEqual(
      rows.map((r) => r.goal),
      [1, 1, 1, 1, 2, 2, 3],
    );
    for (let i = 1; i < prompts.length; i++) assert.ok(prompts[i]!.startsWith(prompts[i - 1]!.slice(0, -2)), `request ${i + 1} begins with request ${i}`);
    for (const body of bodies) assert.equal(body.messages[0]!.content, bodies[0]!.messages[0]!.content, 'the system prompt never changes');
    const goals = bodies
      .at(-1)!
      .messages.filter((m) => m.role === 'user')
      .map((m) => String(m.content));
    assert.match(goals[0]!, /<approval-mode>\nApproval mode auto-edit/);
    assert.doesNotMatch(goals[0]!, /<memory/, 'no memory yet');
    assert.match(goals[1]!, /<approval-mode>\nApproval mode auto: /);
    assert.match(goals[1]!, /<memory source="\.patchpilot\/MEMORY\.md">[\s\S]*The arithmetic helpers live in src\/math\.js\.\n<\/memory>/);
    assert.doesNotMatch(goals[2]!, /<approval-mode>|<memory/, 'nothing changed since goal two');
  });

  test('Anthropic: cache reads of message_start reach the --json result event and the history of the run', async () => {
    const recording = readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'anthropic', 'cache-usage.sse'), 'utf8');
    // Spare answers for requests after the run's own (insights by the fast model), whenever they come.
    const server = await AnthropicServer.start([{ sse: recording }, ...Array.from({ length: 4 }, () => ({ sse: reply({ text: 'Noted.' }) }))]);
    const ws = tempWorkspace({ 'add.js': 'exports.add = (a, b) => a - b;\n' });
    try {
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: ws.root });
      const base = ['--workspace', ws.root, '--provider', 'anthropic', '--base-url', server.baseUrl, '--model', 'claude-sonnet-4-5-20250929'];
      const r = await cli(['run', '--goal', 'do the tests pass?', '--approve', 'auto-edit', '--no-detect-tests', '--json', ...base]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(server.requests[0]!.path, '/v1/messages');
      const finished = r.stdout
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Event)
        .find((e) => e.type === 'run/finished');
      assert.equal(finished?.usage?.reasoning?.cachedTokens, 14_210);
      assert.equal(finished?.usage?.reasoning?.promptTokens, 14 + 1_890 + 14_210);
      const shown = await cli(['history', 'show', 'last', '--cwd', ws.root, '--json']);
      assert.equal(shown.code, 0, shown.stderr);
      const main = (JSON.parse(shown.stdout) as { usage: { source: string; cachedTokens: number }[] }).usage.find((u) => u.source === 'main');
      assert.equal(main?.cachedTokens, 14_210);
    } finally {
      await server.close();
      ws.cleanup();
    }
  });
});
