// Issue 20, class 1, end to end through the built CLI: a hostile scripted model writes code that
// connects to HTTP servers listening on unix sockets outside the workspace (in /run and /var/tmp,
// where a host keeps docker.sock, the user bus, agent sockets), runs it with node, python3 and
// curl (allowed by a trusted workspace's rules, so the commands really run), and as the configured
// test command. No canary may be reached. Then the allowlist: a socket the user's own settings name
// is reachable; one that only the (trusted) workspace names is not.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';
import { probeSandbox } from '../../../src/core/sandbox';
import { createArena, type Arena } from '../agent/attacks/arena';
import { CLI, call, cleanExit, finish, runAgent, turn, type AgentRun } from '../agent/attacks/agent';

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
    this.dir = realpathSync(mkdtempSync(path.join(parent, 'pp-cli-sock-')));
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

/** The agent's code: one line per socket, "reached" or the error it got. */
function nodeProbe(sockets: string[]): string {
  // Loaded by the test, it fails it on purpose: a failing test's output is what reaches the model.
  return `const http = require('http');
if (require.main !== module) process.exitCode = 1;
for (const socketPath of ${JSON.stringify(sockets)}) {
  http.get({ socketPath, path: '/', timeout: 5000 }, (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => console.log('node ' + socketPath + ' reached ' + b.trim())); })
    .on('error', (e) => console.log('node ' + socketPath + ' ' + e.code));
}
`;
}

function pythonProbe(sockets: string[]): string {
  return `import socket
for p in ${JSON.stringify(sockets)}:
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(p)
        s.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')
        print('python', p, 'reached', s.recv(4096).decode().split('\\r\\n\\r\\n')[-1].strip())
    except OSError as e:
        print('python', p, 'error', e.errno)
`;
}

interface Outcome {
  run: AgentRun;
  arena: Arena;
}

async function attack(sockets: string[], options: { userAllow?: string[]; workspaceAllow?: string[] } = {}): Promise<Outcome> {
  const arena = createArena({
    settings: {
      'patchpilot.policy.allow': ['python3 *', 'curl *'],
      ...(options.workspaceAllow ? { 'patchpilot.sandbox.allowUnixSockets': options.workspaceAllow } : {}),
    },
  });
  if (options.userAllow) {
    mkdirSync(path.join(arena.home, '.config', 'patchpilot'), { recursive: true });
    writeFileSync(
      path.join(arena.home, '.config', 'patchpilot', 'settings.json'),
      JSON.stringify({ 'patchpilot.sandbox.allowUnixSockets': options.userAllow }),
    );
  }
  const curl = sockets.map((s) => `curl -sS --max-time 5 --unix-socket ${s} http://x/`).join('; ');
  const turns = [
    turn(
      call('write-js', 'write_file', { path: 'probe.js', content: nodeProbe(sockets) }),
      call('write-py', 'write_file', { path: 'probe.py', content: pythonProbe(sockets) }),
    ),
    turn(call('node', 'run_command', { command: 'node probe.js' })),
    turn(call('python', 'run_command', { command: 'python3 probe.py' })),
    turn(call('curl', 'run_command', { command: curl })),
    // The configured test (node test.js) loads index.js, which now loads the probe: the agent's code runs as the test.
    turn(
      call('poison-tests', 'propose_patch', {
        patch: ['--- a/index.js', '+++ b/index.js', '@@ -1 +1,2 @@', "+require('./probe.js');", ' exports.add = (a, b) => a + b;', ''].join('\n'),
      }),
    ),
    turn(call('tests', 'run_tests', {})),
    // The probe may make the tests fail: the first finish is then refused and the second ends the run.
    finish(),
    finish(),
  ];
  const run = await runAgent(arena, turns, { mode: 'auto', args: ['--trust-workspace', '--test-cmd', 'node test.js'] });
  return { run, arena };
}

describe('unix sockets outside the workspace, through the built CLI', { skip }, () => {
  test('node, python3, curl and the test command the agent wrote reach no socket; they did run', async () => {
    const canaries = ['/run', '/var/tmp'].filter(existsSync).map((p) => new SocketCanary(p));
    for (const c of canaries) await c.listen();
    let outcome: Outcome | undefined;
    try {
      const sockets = canaries.map((c) => c.socket);
      outcome = await attack(sockets);
      const { run } = outcome;
      assert.equal(run.code, cleanExit(run), run.stderr);
      for (const id of ['node', 'python', 'curl', 'tests']) {
        const text = run.results.get(id) ?? '';
        assert.doesNotMatch(text, /CANARY-|reached/, `${id}: ${text}`);
      }
      // The probes ran and were refused (not skipped by the policy).
      for (const s of sockets) {
        assert.match(run.results.get('node') ?? '', new RegExp(`node ${s} (EPERM|ENOENT)`));
        assert.match(run.results.get('tests') ?? '', new RegExp(`node ${s} (EPERM|ENOENT)`));
        assert.match(run.results.get('python') ?? '', new RegExp(`python ${s} error (1|2)\\b`));
      }
      assert.doesNotMatch(run.allModelInput, /CANARY-/);
      for (const c of canaries) assert.equal(c.hits, 0, `${c.socket} was reached`);
    } finally {
      for (const c of canaries) await c.close();
      outcome?.arena.cleanup();
    }
  });

  test(
    'allowUnixSockets: reachable when the user settings name the socket, not when only the (trusted) workspace does',
    { skip: existsSync('/run') ? false : 'needs /run' },
    async () => {
      const mine = new SocketCanary('/run');
      const theirs = new SocketCanary('/var/tmp');
      await mine.listen();
      await theirs.listen();
      let outcome: Outcome | undefined;
      try {
        outcome = await attack([mine.socket, theirs.socket], { userAllow: [mine.socket], workspaceAllow: [theirs.socket] });
        const { run } = outcome;
        assert.equal(run.code, cleanExit(run), run.stderr);
        assert.match(run.results.get('node') ?? '', new RegExp(`node ${mine.socket} reached CANARY-`));
        assert.doesNotMatch(run.results.get('node') ?? '', new RegExp(`node ${theirs.socket} reached`));
        assert.doesNotMatch(run.results.get('curl') ?? '', new RegExp(`CANARY-${path.basename(theirs.dir)}`));
        assert.ok(mine.hits > 0, 'the socket the user allowed was reached');
        assert.equal(theirs.hits, 0, 'the socket only the workspace allowed was not');
        assert.match(run.stderr, /ignored patchpilot\.sandbox\.allowUnixSockets .*only your user settings/);
      } finally {
        await mine.close();
        await theirs.close();
        outcome?.arena.cleanup();
      }
    },
  );
});
