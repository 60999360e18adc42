// End to end through the built CLI: `patchpilot mcp list/approve`, and `patchpilot run` with the
// scripted model calling mcp__ tools of real servers (the test server, server-everything), a server
// that dies mid-call, a cancelled run (no orphans), an untrusted workspace (no server starts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { EVERYTHING, TEST_SERVER, processesWith, waitUntil } from '../../support/mcp/servers';
import { call, events, runCli, skipWithoutBuild, withRepo } from '../agent/support';

const userState = mkdtempSync(path.join(tmpdir(), 'pp-cli-user-state-'));
const env = { PATCHPILOT_STATE_HOME: userState };

function configure(root: string, tag: string): { pidFile: string } {
  const pidFile = path.join(root, 'test-server.pid');
  mkdirSync(path.join(root, '.vscode'), { recursive: true });
  const servers = {
    test: { command: process.execPath, args: [TEST_SERVER, '--pid-file', pidFile, '--grandchild', tag], alwaysAllow: ['echo', 'die', 'slow'] },
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], alwaysAllow: ['echo'] },
  };
  writeFileSync(path.join(root, '.vscode', 'settings.json'), JSON.stringify({ 'patchpilot.mcp.servers': servers }, null, 2));
  return { pidFile };
}

// The server runs in the sandbox's own PID namespace, so the pid it writes is not the host's: it is found by its unique tag.
const serverProcesses = (tag: string) => processesWith(`--grandchild ${tag}`);
const mcp = (args: string[]) => runCli(args, { command: 'mcp', env });
const tagFor = (n: number) => `${600 + (process.pid % 200)}.${n}${Date.now() % 1000}`;

describe('patchpilot mcp and run with MCP servers (built CLI, real servers, scripted model)', { skip: skipWithoutBuild }, () => {
  before(() => undefined);
  after(() => rmSync(userState, { recursive: true, force: true }));

  test('mcp list shows what waits for approval (nothing started); approve starts, shows and records; list then shows them connected', async () => {
    await withRepo([], async (root) => {
      const tag = tagFor(1);
      const { pidFile } = configure(root, tag);
      const untrusted = await mcp(['list', '--workspace', root]);
      assert.equal(untrusted.code, 0, untrusted.stderr);
      assert.match(untrusted.stderr, /ignored patchpilot\.mcp\.servers .*not trusted/);
      assert.match(untrusted.stdout, /no MCP servers configured/);

      const before = await mcp(['list', '--workspace', root, '--trust-workspace']);
      assert.equal(before.code, 0, before.stderr);
      assert.match(before.stdout, /^test {2}needs-approval: a new server, not approved yet \(approve it ahead with: patchpilot mcp approve test\)/m);
      assert.match(before.stdout, /^everything {2}needs-approval/m);
      assert.equal(existsSync(pidFile), false, 'listing starts no unapproved server');

      const approve = await mcp(['approve', 'test', 'everything', '--workspace', root, '--trust-workspace']);
      assert.equal(approve.code, 0, approve.stderr);
      assert.match(approve.stdout, /^approved test: .*testServer\.mjs/m);
      assert.match(approve.stdout, /^ {2}echo: Echoes the text back \(always allowed\)$/m);
      assert.match(approve.stdout, /^ {2}die: Exits in the middle of the call/m);
      assert.match(approve.stdout, /^approved everything: /m);

      const list = await mcp(['list', '--workspace', root, '--trust-workspace', '--json']);
      const statuses = JSON.parse(list.stdout) as { name: string; state: string; connectedVia: string; toolCount: number }[];
      assert.deepEqual(
        statuses.map((x) => [x.name, x.state, x.connectedVia]),
        [
          ['test', 'connected', 'stdio'],
          ['everything', 'connected', 'stdio'],
        ],
      );
      assert.equal(statuses[0]!.toolCount, 4);
      assert.ok(existsSync(pidFile), 'the approved server was started to list it');
      await waitUntil(() => serverProcesses(tag).length === 0, 5_000, 'the listed server to stop');
      assert.deepEqual(processesWith(`sleep ${tag}`), []);

      const unknown = await mcp(['approve', 'nope', '--workspace', root, '--trust-workspace']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /no MCP server named "nope" \(configured: test, everything\)/);
    });
  });

  test('run: the model calls mcp__ tools; a server that dies mid-call is a failed result, the next call reconnects; nothing is left running', async () => {
    const turns: ScriptedTurn[] = [
      {
        reply: {
          toolCalls: [
            call('mcp__test__echo', { text: 'hi' }),
            call('mcp__everything__echo', { message: 'ho' }),
            call('mcp__everything__get-sum', { a: 1, b: 2 }),
          ],
        },
        expect: { toolsInclude: ['mcp__test__echo', 'mcp__test__die', 'mcp__everything__echo', 'mcp__everything__get-sum', 'spawn_subagent'] },
      },
      { reply: { toolCalls: [call('mcp__test__die', {})] }, expect: { anyMessageContains: 'echo: hi' } },
      { reply: { toolCalls: [call('mcp__test__echo', { text: 'again' })] }, expect: { lastMessageContains: 'exit code 3' } },
      { reply: { toolCalls: [call('finish', { summary: 'MCP works.' })] }, expect: { lastMessageContains: 'echo: again' } },
    ];
    await withRepo(turns, async (root, server) => {
      const tag = tagFor(2);
      const { pidFile } = configure(root, tag);
      assert.equal((await mcp(['approve', 'test', 'everything', '--workspace', root, '--trust-workspace'])).code, 0);
      const r = await runCli(
        ['--goal', 'use the MCP tools', '--workspace', root, '--trust-workspace', '--base-url', server.baseUrl, '--model', 'scripted-model', '--json'],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      const ev = events(r.stdout);
      const results = ev.filter((e) => e.type === 'tool/finished') as unknown as { name: string; ok: boolean; output: string }[];
      assert.deepEqual(
        results.map((x) => [x.name, x.ok]),
        [
          ['mcp__test__echo', true],
          ['mcp__everything__echo', true],
          ['mcp__everything__get-sum', false],
          ['mcp__test__die', false],
          ['mcp__test__echo', true],
          ['finish', true],
        ],
      );
      // get-sum is not in alwaysAllow: without a terminal the call is refused and the model told why.
      assert.match(results[2]!.output, /not done, nobody could approve it: MCP everything\.get-sum.*no terminal/s);
      assert.match(results[3]!.output, /dying on purpose/);
      assert.ok(existsSync(pidFile));
      await waitUntil(() => serverProcesses(tag).length === 0, 5_000, 'the server to stop after the run');
      assert.deepEqual(processesWith(`sleep ${tag}`), []);
      assert.deepEqual(processesWith(root), [], 'no server of this workspace is left');
    });
  });

  test('a run cancelled during a slow MCP call exits 130 and leaves no server and no grandchild behind', async () => {
    const turns: ScriptedTurn[] = [{ reply: { toolCalls: [call('mcp__test__slow', { ms: 120_000 })] } }];
    await withRepo(turns, async (root, server) => {
      const tag = tagFor(3);
      const { pidFile } = configure(root, tag);
      assert.equal((await mcp(['approve', 'test', '--workspace', root, '--trust-workspace'])).code, 0);
      let signalled = false;
      const r = await runCli(['--goal', 'wait', '--workspace', root, '--trust-workspace', '--base-url', server.baseUrl, '--model', 'scripted-model'], {
        env,
        onStderr: (text, child) => {
          if (!signalled && text.includes('> mcp__test__slow')) {
            signalled = true;
            setTimeout(() => child.kill('SIGINT'), 300);
          }
        },
      });
      assert.equal(r.code, 130, r.stderr);
      assert.ok(existsSync(pidFile));
      assert.deepEqual(serverProcesses(tag), [], 'the server (and its sandbox) is gone when the CLI has exited');
      assert.deepEqual(processesWith(`sleep ${tag}`), [], 'and what it started');
    });
  });

  test('without a terminal an unapproved server does not start; the run says how to approve it', async () => {
    const turns: ScriptedTurn[] = [
      {
        reply: { toolCalls: [call('finish', { summary: 'no MCP' })] },
        check: ({ body }) =>
          (body.tools as { function: { name: string } }[]).some((t) => t.function.name.startsWith('mcp__')) ? 'MCP tools offered' : undefined,
      },
    ];
    await withRepo(turns, async (root, server) => {
      const { pidFile } = configure(root, tagFor(4));
      const r = await runCli(['--goal', 'x', '--workspace', root, '--trust-workspace', '--base-url', server.baseUrl, '--model', 'scripted-model'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.match(r.stderr, /MCP server "test" is not available: not approved \(approve it ahead with: patchpilot mcp approve test\)/);
      assert.equal(existsSync(pidFile), false);
    });
  });

  test('an untrusted workspace: its servers are ignored (with a warning) and never start, even when approved before', async () => {
    const turns: ScriptedTurn[] = [
      {
        reply: { toolCalls: [call('finish', { summary: 'none' })] },
        check: ({ body }) =>
          (body.tools as { function: { name: string } }[]).some((t) => t.function.name.startsWith('mcp__')) ? 'MCP tools offered' : undefined,
      },
    ];
    await withRepo(turns, async (root, server) => {
      const { pidFile } = configure(root, tagFor(5));
      assert.equal((await mcp(['approve', 'test', '--workspace', root, '--trust-workspace'])).code, 0);
      rmSync(pidFile);
      const r = await runCli(['--goal', 'x', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.match(r.stderr, /ignored patchpilot\.mcp\.servers .*not trusted/);
      assert.equal(existsSync(pidFile), false);
    });
  });
});
