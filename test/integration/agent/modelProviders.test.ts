// End to end: the built `patchpilot run` with Anthropic's Messages API (a loopback server speaking
// its SSE, driven through the real SDK) and with a model served by a local program, each reading a
// file and proposing the patch that fixes it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { gitInit, tempWorkspace } from '../../unit/tools/helpers';
import { AnthropicServer, reply } from '../../support/anthropicServer';
import { events, runCli, skipWithoutBuild } from './support';

const TINY = path.resolve(__dirname, '../../support/modelProgram/tinyModel.js');
const FIXED = 'exports.add = (a, b) => a + b;\n';

async function withWorkspace(files: Record<string, string>, fn: (root: string) => Promise<void>): Promise<void> {
  const ws = tempWorkspace(files);
  gitInit(ws.root);
  try {
    await fn(ws.root);
  } finally {
    ws.cleanup();
  }
}

describe('patchpilot run with other model providers (built CLI)', { skip: skipWithoutBuild }, () => {
  test('--provider anthropic: reads add.js, proposes the fix, finishes; thinking goes back signed, the key as x-api-key from ANTHROPIC_API_KEY', async () => {
    const signature = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+/=';
    const server = await AnthropicServer.start([
      {
        sse: reply({
          thinking: { text: 'Read add.js first.', signature },
          text: 'Let me look.',
          tools: [{ id: 'toolu_read', name: 'read_file', input: { path: 'add.js' } }],
          usage: { input_tokens: 900, output_tokens: 40, cache_creation_input_tokens: 2_000 },
        }),
      },
      {
        sse: reply({
          thinking: { text: 'It subtracts.', signature: 'sig-2' },
          tools: [{ id: 'toolu_patch', name: 'propose_patch', input: { patch: FIX } }],
          usage: { input_tokens: 300, output_tokens: 60, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 700 },
        }),
      },
      { sse: reply({ tools: [{ id: 'toolu_finish', name: 'finish', input: { summary: 'Fixed add(): it subtracted.' } }] }) },
    ]);
    try {
      await withWorkspace({ ...BUGGY, '.vscode/settings.json': JSON.stringify({ 'patchpilot.llm.anthropic.thinkingBudget': 2048 }) }, async (root) => {
        const r = await runCli(
          [
            '--goal',
            'make the add test pass',
            '--workspace',
            root,
            '--approve',
            'auto-edit',
            '--provider',
            'anthropic',
            '--base-url',
            server.baseUrl,
            '--model',
            'claude-sonnet-4-20250514',
            '--json',
          ],
          {
            env: { PATCHPILOT_API_KEY: '', ANTHROPIC_API_KEY: 'sk-ant-e2e' },
          },
        );
        assert.equal(r.code, 0, r.stderr);
        assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), FIXED);
        const last = events(r.stdout).at(-1)!;
        assert.equal(last.status, 'finished');
        assert.equal(server.requests.length, 3);
        for (const q of server.requests) {
          assert.equal(q.path, '/v1/messages');
          assert.equal(q.headers['x-api-key'], 'sk-ant-e2e');
          assert.equal(q.headers.authorization, undefined);
          assert.deepEqual(q.body.thinking, { type: 'enabled', budget_tokens: 2048 });
          assert.deepEqual(q.body.system.at(-1).cache_control, { type: 'ephemeral' });
          assert.deepEqual(q.body.tools.at(-1).cache_control, { type: 'ephemeral' });
        }
        // The second request: the first reply's thinking block first on its assistant message, signature unchanged, then the file's text as the tool result.
        const second = server.requests[1]!.body.messages as { role: string; content: any[] }[];
        const assistant = second.find((m) => m.role === 'assistant')!;
        assert.deepEqual(assistant.content[0], { type: 'thinking', thinking: 'Read add.js first.', signature });
        assert.equal(assistant.content.at(-1).type, 'tool_use');
        const result = second.at(-1)!.content.find((b) => b.type === 'tool_result');
        assert.equal(result.tool_use_id, 'toolu_read');
        assert.match(JSON.stringify(result.content), /a - b/);
        // Both earlier replies' thinking travels with the third request.
        const third = server.requests[2]!.body.messages as { role: string; content: any[] }[];
        assert.deepEqual(
          third.filter((m) => m.role === 'assistant').map((m) => m.content[0].signature),
          [signature, 'sig-2'],
        );
      });
    } finally {
      await server.close();
    }
  });

  test('--llm-command: a local program serves the model, no endpoint or model needed; the fix lands', async () => {
    await withWorkspace(BUGGY, async (root) => {
      const log = path.join(root, '.git', 'model-requests.jsonl');
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(TINY)} agent ${JSON.stringify(log)}`;
      // No --model: the program serves one model, the request names it local-program.
      const r = await runCli(['--goal', 'make the add test pass', '--workspace', root, '--approve', 'auto-edit', '--llm-command', command, '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), FIXED);
      const requests = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { model: string; messages: { role: string }[] });
      assert.equal(requests.length, 3);
      assert.ok(requests.every((q) => q.model === 'local-program' && q.messages[0]!.role === 'system'));
      const finished = events(r.stdout).at(-1)!;
      assert.deepEqual([finished.status, finished.summary], ['finished', 'add() subtracted; the patch makes it add.']);
    });
  });

  test("--thinking-budget below the API's minimum is a usage error", async () => {
    await withWorkspace(BUGGY, async (root) => {
      const r = await runCli(['--goal', 'x', '--workspace', root, '--provider', 'anthropic', '--model', 'claude', '--thinking-budget', '500', '--json']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--thinking-budget must be an integer of at least 1024/);
    });
  });

  test('a workspace cannot name the model program, not even a trusted one', async () => {
    await withWorkspace({ ...BUGGY, '.vscode/settings.json': JSON.stringify({ 'patchpilot.llm.command': 'touch pwned' }) }, async (root) => {
      const r = await runCli(['--goal', 'x', '--workspace', root, '--trust-workspace', '--model', 'm', '--json']);
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /ignored patchpilot\.llm\.command = "touch pwned" from .*settings\.json: only your user settings \(or, in the CLI, its user settings file, flag or environment variable\) may set it, never a workspace, trusted or not\n/,
      );
      assert.match(r.stderr, /no model endpoint/);
    });
  });
});
