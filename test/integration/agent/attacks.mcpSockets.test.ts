// Issue 20, class 1, for local MCP servers, end to end through the built CLI: an approved stdio
// server in the workspace (a small node script) runs in the sandbox like the agent's commands, and
// gets the same seccomp filter: its tool tries to reach HTTP servers listening on unix sockets
// outside the workspace (in /run and /var/tmp, where a host keeps docker.sock, the user bus, agent
// sockets) and reaches none, while the server itself still answers over stdio (pipes are not
// sockets the filter refuses). The user-only allowlist `patchpilot.sandbox.allowUnixSockets` opens
// one socket for servers as it does for commands; a workspace cannot.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';
import { probeSandbox } from '../../../src/core/sandbox';
import { socketProbeServerScript } from '../../support/mcp/workspaceServer';
import { createArena, type Arena } from './attacks/arena';
import { CLI, call, cliEnv, finish, runAgent, turn, type AgentRun } from './attacks/agent';

const sandbox = probeSandbox();
const skip = !existsSync(CLI)
  ? 'run npm run build first'
  : !sandbox.available
    ? sandbox.message
    : !sandbox.blocksUnixSockets
      ? `unix sockets are not blocked here: ${sandbox.message}`
      : false;

class SocketCanary {
  hits = 0;
  readonly dir: string;
  readonly socket: string;
  private readonly server = http.createServer((_req, res) => {
    this.hits++;
    res.end(`CANARY-${path.basename(this.dir)}\n`);
  });
  constructor(parent: string) {
    this.dir = realpathSync(mkdtempSync(path.join(parent, 'pp-mcp-sock-')));
    this.socket = path.join(this.dir, 'api.sock');
  }
  listen(): Promise<void> {
    return new Promise((r) => this.server.listen(this.socket, r));
  }
  async close(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** An approved workspace server whose `connect` tool tries the sockets; the run calls `hello` and `connect`. */
async function serverRun(sockets: string[], options: { userAllow?: string[]; workspaceAllow?: string[] } = {}): Promise<{ run: AgentRun; arena: Arena }> {
  const arena = createArena({
    settings: {
      'patchpilot.mcp.servers': { local: { command: 'node', args: ['tools/mcp-srv.mjs'], alwaysAllow: ['hello', 'connect'] } },
      ...(options.workspaceAllow ? { 'patchpilot.sandbox.allowUnixSockets': options.workspaceAllow } : {}),
    },
    files: { 'tools/mcp-srv.mjs': socketProbeServerScript(sockets) },
  });
  if (options.userAllow) {
    mkdirSync(path.join(arena.home, '.config', 'patchpilot'), { recursive: true });
    writeFileSync(
      path.join(arena.home, '.config', 'patchpilot', 'settings.json'),
      JSON.stringify({ 'patchpilot.sandbox.allowUnixSockets': options.userAllow }),
    );
  }
  execFileSync(process.execPath, [CLI, 'mcp', 'approve', 'local', '--workspace', arena.ws, '--trust-workspace'], {
    env: cliEnv(arena),
    stdio: 'pipe',
  });
  const run = await runAgent(arena, [turn(call('hello', 'mcp__local__hello', {})), turn(call('connect', 'mcp__local__connect', {})), finish()], {
    args: ['--trust-workspace'],
  });
  return { run, arena };
}

describe('attacks: a sandboxed MCP server and unix sockets outside the workspace (built CLI)', { skip }, () => {
  test('the server works over stdio and reaches no socket on the host', async () => {
    const canaries = ['/run', '/var/tmp'].filter(existsSync).map((p) => new SocketCanary(p));
    for (const c of canaries) await c.listen();
    let arena: Arena | undefined;
    try {
      const sockets = canaries.map((c) => c.socket);
      const out = await serverRun(sockets);
      arena = out.arena;
      const { run } = out;
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.results.get('hello') ?? '', /hello over stdio/, 'the server answers over stdio');
      const connected = run.results.get('connect') ?? '';
      assert.doesNotMatch(connected, /CANARY-|reached/, connected);
      // The tool ran and was refused (EPERM: the filter; ENOENT: a folder the sandbox replaces).
      for (const s of sockets) assert.match(connected, new RegExp(`${s} (EPERM|ENOENT)`), connected);
      assert.doesNotMatch(run.allModelInput, /CANARY-/);
      for (const c of canaries) assert.equal(c.hits, 0, `${c.socket} was reached`);
    } finally {
      for (const c of canaries) await c.close();
      arena?.cleanup();
    }
  });

  test('allowUnixSockets: the server reaches the socket the user settings name, not one only the (trusted) workspace names', async () => {
    const mine = new SocketCanary('/var/tmp');
    const theirs = new SocketCanary('/var/tmp');
    await mine.listen();
    await theirs.listen();
    let arena: Arena | undefined;
    try {
      const out = await serverRun([mine.socket, theirs.socket], { userAllow: [mine.socket], workspaceAllow: [theirs.socket] });
      arena = out.arena;
      const { run } = out;
      assert.equal(run.code, 0, run.stderr);
      const connected = run.results.get('connect') ?? '';
      assert.match(connected, new RegExp(`${mine.socket} reached CANARY-${path.basename(mine.dir)}`), connected);
      assert.doesNotMatch(connected, new RegExp(`${theirs.socket} reached`), connected);
      assert.ok(mine.hits > 0, 'the socket the user allowed was reached');
      assert.equal(theirs.hits, 0, 'the socket only the workspace allowed was not');
    } finally {
      await mine.close();
      await theirs.close();
      arena?.cleanup();
    }
  });
});
