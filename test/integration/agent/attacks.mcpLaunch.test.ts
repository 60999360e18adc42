// An approved MCP server runs code the agent wrote, end to end through the built CLI: a server
// approved as `node tools/mcp-srv.mjs` (a real SDK server script in the workspace) is modified
// (a) by a patch in auto mode, (b) by a command in the sandbox, (c) on disk between runs, and
// (d) by adding the config file its launch names. The next run must not start the modified server
// without a new approval: its approval covers the named files' contents, those files are protected
// paths, and a run without a terminal cannot approve. The modified server would write a marker file.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSandbox } from '../../../src/core/sandbox';
import { createArena, type Arena } from './attacks/arena';
import { CLI, call, cliEnv, finish, runAgent, turn } from './attacks/agent';
import { workspaceServerScript } from '../../support/mcp/workspaceServer';

const sandbox = probeSandbox();
const MARKER = 'pwned-by-modified-mcp-server.txt';

const serverScript = (greeting: string) => workspaceServerScript(greeting);

/** What the agent appends: code that runs at the server's next start. */
const PAYLOAD = `\nimport('node:fs').then((fs) => fs.writeFileSync(${JSON.stringify(MARKER)}, 'modified server ran'));\n`;

function mcpArena(args: string[] = ['tools/mcp-srv.mjs']): Arena {
  return createArena({
    settings: { 'patchpilot.mcp.servers': { local: { command: 'node', args, alwaysAllow: ['hello'] } } },
    files: { 'tools/mcp-srv.mjs': serverScript('hello from the approved server') },
  });
}

function mcp(arena: Arena, ...args: string[]): { code: number; stdout: string; stderr: string } {
  return mcpWith(arena, {}, ...args);
}

function mcpWith(arena: Arena, env: NodeJS.ProcessEnv, ...args: string[]): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [CLI, 'mcp', ...args, '--workspace', arena.ws, '--trust-workspace'], {
      env: cliEnv(arena, env),
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, stdout, stderr: '' };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A run whose model calls the server's tool; returns what it got and the run's stderr. */
async function useServer(arena: Arena, extraTurns: ReturnType<typeof turn>[] = []) {
  return runAgent(arena, [...extraTurns, turn(call('hello', 'mcp__local__hello', {})), finish()], { args: ['--trust-workspace'] });
}

function patchAppending(arena: Arena, rel: string, line: string): string {
  const lines = readFileSync(path.join(arena.ws, rel), 'utf8').replace(/\n$/, '').split('\n');
  const ctx = lines.slice(-3);
  const start = lines.length - ctx.length + 1;
  return [`--- a/${rel}`, `+++ b/${rel}`, `@@ -${start},${ctx.length} +${start},${ctx.length + 1} @@`, ...ctx.map((l) => ` ${l}`), `+${line}`, ''].join('\n');
}

async function approvedArena(args?: string[]): Promise<Arena> {
  const arena = mcpArena(args);
  const approved = mcp(arena, 'approve', 'local');
  assert.equal(approved.code, 0, approved.stderr);
  // The approved server works: its tool is offered and answers.
  const first = await useServer(arena);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.results.get('hello') ?? '', /hello from the approved server/);
  return arena;
}

/** What the user was warned about (stderr, and the JSON stream's warning events). */
function warnings(run: Awaited<ReturnType<typeof useServer>>): string {
  return [run.stderr, ...run.events.filter((e) => e.type === 'warning').map((e) => String(e.message))].join('\n');
}

function assertModifiedServerNeverRan(arena: Arena, run: Awaited<ReturnType<typeof useServer>>, file = 'tools/mcp-srv.mjs'): void {
  assert.equal(existsSync(path.join(arena.ws, MARKER)), false, 'the modified server must not start without a new approval');
  assert.doesNotMatch(run.results.get('hello') ?? '', /hello from/, 'its tool is not offered');
  assert.match(
    warnings(run),
    new RegExp(`MCP server "local" is not available: .*a file it runs changed since it was approved: ${file.replace(/[./]/g, '\\$&')} \\((changed|added)\\)`),
  );
}

describe('attacks: an approved MCP server runs code the agent wrote (built CLI)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  test('(a) a patch in auto mode to the server script asks (protected path), so it is not applied unattended', async () => {
    const arena = await approvedArena();
    try {
      const patch = patchAppending(arena, 'tools/mcp-srv.mjs', PAYLOAD.trim());
      const attack = await runAgent(
        arena,
        [
          turn(call('p', 'propose_patch', { patch })),
          turn(call('w', 'write_file', { path: 'tools/mcp-srv.mjs', content: serverScript('x') + PAYLOAD })),
          finish(),
        ],
        { args: ['--trust-workspace'] },
      );
      assert.match(attack.results.get('p') ?? '', /protected path \(MCP server "local" runs it/);
      assert.match(attack.results.get('w') ?? '', /not done, nobody could approve it/);
      assert.equal(readFileSync(path.join(arena.ws, 'tools/mcp-srv.mjs'), 'utf8'), serverScript('hello from the approved server'));
      const next = await useServer(arena);
      assert.equal(existsSync(path.join(arena.ws, MARKER)), false);
      assert.match(next.results.get('hello') ?? '', /hello from the approved server/, 'the unchanged server still runs');
    } finally {
      arena.cleanup();
    }
  });

  test(`(b) a command ${sandbox.available ? 'in the sandbox' : '(no sandbox here: the guard restores)'} cannot change the server script`, async () => {
    const arena = await approvedArena();
    try {
      const command = `node -e "require('fs').appendFileSync('tools/mcp-srv.mjs', ${JSON.stringify(PAYLOAD).replace(/"/g, '\\"')})"`;
      const attack = await runAgent(arena, [turn(call('c', 'run_command', { command })), finish()], { args: ['--trust-workspace'] });
      assert.equal(attack.code, 0, attack.stderr);
      assert.equal(
        readFileSync(path.join(arena.ws, 'tools/mcp-srv.mjs'), 'utf8'),
        serverScript('hello from the approved server'),
        `unchanged after: ${attack.results.get('c')}`,
      );
      const next = await useServer(arena);
      assert.equal(existsSync(path.join(arena.ws, MARKER)), false);
      assert.match(next.results.get('hello') ?? '', /hello from the approved server/);
    } finally {
      arena.cleanup();
    }
  });

  test('(c) a script changed on disk between runs is not started: the run says which file changed; mcp list too', async () => {
    const arena = await approvedArena();
    try {
      appendFileSync(path.join(arena.ws, 'tools/mcp-srv.mjs'), PAYLOAD);
      const next = await useServer(arena);
      assertModifiedServerNeverRan(arena, next);
      const list = mcp(arena, 'list');
      assert.match(list.stdout, /^local {2}needs-approval: a file it runs changed since it was approved: tools\/mcp-srv\.mjs \(changed\)/m);
      assert.equal(existsSync(path.join(arena.ws, MARKER)), false, 'listing starts no changed server');
      // Approving it again (the user's choice) starts the new code.
      assert.equal(mcp(arena, 'approve', 'local').code, 0);
      assert.equal(existsSync(path.join(arena.ws, MARKER)), true);
    } finally {
      arena.cleanup();
    }
  });

  test('without bubblewrap: the server runs unconfined, the question says so, and a changed script is still not started', async () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'pp-fake-bwrap-'));
    writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    chmodSync(path.join(bin, 'bwrap'), 0o755);
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
    const arena = mcpArena();
    try {
      const list = mcpWith(arena, env, 'list');
      assert.match(list.stdout, /^local {2}needs-approval/m);
      assert.match(list.stdout, /node tools\/mcp-srv\.mjs \(not sandboxed\)/);
      assert.equal(mcpWith(arena, env, 'approve', 'local').code, 0);
      appendFileSync(path.join(arena.ws, 'tools/mcp-srv.mjs'), PAYLOAD);
      const next = await runAgent(arena, [turn(call('hello', 'mcp__local__hello', {})), finish()], { args: ['--trust-workspace'], env });
      const asked = next.events.find((e) => e.type === 'approval/needed' && e.kind === 'mcp') as { reason?: string } | undefined;
      assert.match(asked?.reason ?? '', /tools\/mcp-srv\.mjs \(changed\); it runs outside the sandbox: no sandbox works here \(bubblewrap does not work here/);
      assertModifiedServerNeverRan(arena, next);
    } finally {
      arena.cleanup();
      rmSync(bin, { recursive: true, force: true });
    }
  });

  test('(d) a config file the launch names (--config=cfg.json), absent at approval, is created later: asks again', async () => {
    const arena = await approvedArena(['tools/mcp-srv.mjs', '--config=tools/cfg.json']);
    try {
      const attack = await runAgent(arena, [turn(call('w', 'write_file', { path: 'tools/cfg.json', content: '{"plugins":["./evil.mjs"]}' })), finish()], {
        args: ['--trust-workspace'],
      });
      assert.match(attack.results.get('w') ?? '', /not done, nobody could approve it/, 'creating it asks (protected while configured)');
      writeFileSync(path.join(arena.ws, 'tools/cfg.json'), '{"plugins":["./evil.mjs"]}');
      const next = await useServer(arena);
      assert.doesNotMatch(next.results.get('hello') ?? '', /hello from/);
      assert.match(warnings(next), /a file it runs changed since it was approved: tools\/cfg\.json \(added\)/);
    } finally {
      arena.cleanup();
    }
  });
});
