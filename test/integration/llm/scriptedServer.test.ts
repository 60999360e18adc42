import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import OpenAI from 'openai';
import { clientFor, rejectsWith, userAsks, withServer } from './helpers';
import { ScriptedModelServer, type Script } from '../../support/scriptedModel';

const sdk = (baseURL: string) => new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0 });

describe('scripted model server', () => {
  test('GET /v1/models labels it plainly as scripted', async () => {
    await withServer([], async (server) => {
      const models = await sdk(server.baseUrl).models.list();
      assert.deepEqual(
        models.data.map((m) => m.id),
        ['scripted-model'],
      );
      assert.equal(models.data[0]!.owned_by, 'patchpilot-scripted-model');
    });
  });

  test('non-streaming: a JSON chat.completion with tool calls and usage', async () => {
    const reply = { text: 'ok', toolCalls: [{ id: 'c1', name: 'grep', arguments: { pattern: 'x' } }], usage: { promptTokens: 7, completionTokens: 3 } };
    await withServer([{ reply }], async (server) => {
      const res = await sdk(server.baseUrl).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
      const msg = res.choices[0]!.message;
      assert.equal(msg.content, 'ok');
      assert.deepEqual(msg.tool_calls, [{ id: 'c1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } }]);
      assert.equal(res.choices[0]!.finish_reason, 'tool_calls');
      assert.equal(res.usage!.total_tokens, 10);
    });
  });

  test('streams a tool call like providers do: id and name first, then arguments in several deltas', async () => {
    const reply = { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }], argumentChunks: 3, usage: null };
    await withServer([{ reply }], async (server) => {
      const stream = await sdk(server.baseUrl).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }], stream: true });
      const deltas = [];
      for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.tool_calls?.[0]);
      const calls = deltas.filter(Boolean);
      assert.equal(calls[0]!.id, 'call_0_0');
      assert.equal(calls[0]!.function!.name, 'read_file');
      assert.equal(calls[0]!.function!.arguments, '');
      assert.equal(calls.length, 4);
      assert.ok(calls.slice(1).every((c) => c!.id === undefined && c!.function!.name === undefined));
      assert.equal(calls.map((c) => c!.function!.arguments).join(''), '{"path":"src/a.ts"}');
    });
  });

  test('records requests and counts attempts per turn; advances only on a served reply', async () => {
    const script = [{ reply: { text: 'one' }, faults: [{ kind: 'status' as const, status: 500 }] }, { reply: { text: 'two' } }];
    await withServer(script, async (server) => {
      const client = clientFor(server);
      await client.streamChat({ role: 'reasoning', messages: userAsks('a') });
      await client.streamChat({ role: 'reasoning', messages: userAsks('b') });
      assert.equal(server.attemptsForTurn(0), 2);
      assert.equal(server.attemptsForTurn(1), 1);
      assert.equal(server.turnsServed, 2);
      assert.deepEqual(
        server.chatRequests.map((r) => [r.turn, r.attempt, r.outcome]),
        [
          [0, 1, 'status'],
          [0, 2, 'reply'],
          [1, 1, 'reply'],
        ],
      );
      assert.equal(server.chatRequests[2]!.body.messages[0].content, 'b');
    });
  });

  test('a request that does not match the turn is refused with the reason and recorded', async () => {
    const script = [{ reply: { text: 'x' }, expect: { lastMessageRole: 'tool' as const, lastMessageContains: 'PASS' } }];
    await withServer(script, async (server) => {
      const err = await rejectsWith(clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('no tool result') }));
      assert.equal(err.kind, 'bad-request');
      assert.match(err.message, /did not match: expected the last message to be "tool", got "user"/);
      assert.deepEqual(server.mismatches, [{ turn: 0, problem: 'expected the last message to be "tool", got "user"' }]);
      assert.equal(server.turnsServed, 0);
    });
  });

  test('a code check sees the request body and headers', async () => {
    const script = [
      { reply: { text: 'x' }, check: ({ headers }: { headers: Record<string, string> }) => (headers['authorization'] ? 'no auth expected' : undefined) },
    ];
    await withServer(script, async (server) => {
      await clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('q') });
      assert.deepEqual(server.mismatches, []);
    });
  });

  test('past the end of the script: a clear 400, never an invented reply', async () => {
    await withServer([], async (server) => {
      const err = await rejectsWith(clientFor(server).streamChat({ role: 'reasoning', messages: userAsks('q') }));
      assert.match(err.message, /the script has no turn left/);
      assert.equal(server.chatRequests.length, 1);
    });
  });

  test('rejects an invalid script with every problem listed', async () => {
    await assert.rejects(
      ScriptedModelServer.start({ turns: [{ faults: [{ kind: 'explode' }] }] } as unknown as Script),
      /turns\[0\]\.reply must be an object; turns\[0\]\.faults\[0\]\.kind must be one of/,
    );
  });

  test('the CLI serves a JSON script file, prints its base URL and stops on SIGTERM', { timeout: 20_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pp-scripted-'));
    try {
      const file = path.join(dir, 'script.json');
      const script: Script = { turns: [{ reply: { text: 'from a file' }, expect: { anyMessageContains: 'hello' } }] };
      writeFileSync(file, JSON.stringify(script));
      const cli = path.resolve('test/support/scriptedModel/cli.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', cli, '--script', file, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        let out = '';
        child.stdout.setEncoding('utf8');
        while (!out.includes('\n')) {
          const [data] = (await once(child.stdout, 'data')) as [string];
          out += data;
        }
        const baseUrl = out.trim();
        assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        const turn = await clientFor({ baseUrl }).streamChat({ role: 'reasoning', messages: userAsks('hello') });
        assert.equal(turn.text, 'from a file');
        let err = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
        child.kill('SIGTERM');
        const [code] = (await once(child, 'exit')) as [number];
        assert.equal(code, 0);
        assert.deepEqual(JSON.parse(err.trim()), { turnsServed: 1, requests: 1, mismatches: [] });
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the CLI refuses a broken script file with a readable error', { timeout: 20_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pp-scripted-'));
    try {
      const file = path.join(dir, 'bad.json');
      writeFileSync(file, '{"turns": [ {"reply": 3} ]}');
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/scriptedModel/cli.ts', '--script', file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const [code] = (await once(child, 'exit')) as [number];
      assert.equal(code, 1);
      assert.match(err, /invalid script .*bad\.json: turns\[0\]\.reply must be an object/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
