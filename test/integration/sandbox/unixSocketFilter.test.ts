// The seccomp filter against real programs (real bwrap, runCommand): unix sockets cannot be opened
// from the sandbox, whichever door a program takes, while socketpair (the IPC between a test runner
// and its workers) and TCP keep working. The canaries are HTTP servers on unix sockets outside the
// workspace, in the places a host keeps them (/run, /var/tmp): none may be reached.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeSandbox, runCommand } from '../../../src/core/sandbox';
import { unixSocketFilter } from '../../../src/core/sandbox/seccompFilter';

const sandbox = probeSandbox();
const skip = sandbox.available ? (sandbox.blocksUnixSockets ? false : `unix sockets are not blocked here: ${sandbox.message}`) : sandbox.message;
const hasPython = (() => {
  try {
    execFileSync('python3', ['-c', 'import socket']);
    return true;
  } catch {
    return false;
  }
})();
const COMPAT = path.join(__dirname, 'fixtures', 'compatSockets.py');

/** An HTTP server on a unix socket in a fresh folder under `parent`; counts what reaches it. */
class SocketCanary {
  hits = 0;
  readonly dir: string;
  readonly socket: string;
  private readonly server = http.createServer((_req, res) => {
    this.hits++;
    res.end('CANARY-REACHED\n');
  });
  constructor(parent: string) {
    this.dir = realpathSync(mkdtempSync(path.join(parent, 'pp-sock-')));
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

let ws: string;
const canaries: SocketCanary[] = [];

before(async () => {
  ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-unixsock-ws-')));
  for (const parent of ['/run', '/var/tmp']) if (existsSync(parent)) canaries.push(new SocketCanary(parent));
  for (const c of canaries) await c.listen();
});

after(async () => {
  for (const c of canaries) await c.close();
  rmSync(ws, { recursive: true, force: true });
});

const run = (command: string, extra: { allowNetwork?: boolean } = {}) =>
  runCommand({ command, cwd: ws, workspaceRoot: ws, sandbox: 'require', timeoutMs: 30_000, ...extra });

describe('unix sockets from the sandbox (real bwrap, seccomp)', () => {
  test('the filter knows x64 and arm64 and nothing else (elsewhere the sandbox says sockets are not blocked)', () => {
    assert.ok(unixSocketFilter('x64')!.length % 8 === 0);
    assert.ok(unixSocketFilter('arm64')!.length % 8 === 0);
    assert.equal(unixSocketFilter('ia32'), undefined);
    assert.equal(unixSocketFilter('riscv64'), undefined);
  });

  test(
    'the canaries answer outside the sandbox (the test would prove nothing otherwise)',
    { skip: process.platform === 'linux' ? false : 'Linux only' },
    async () => {
      for (const c of canaries) {
        const r = await runCommand({ command: `curl -sS --max-time 5 --unix-socket ${c.socket} http://x/`, cwd: ws, workspaceRoot: ws, sandbox: 'off' });
        assert.match(r.stdout, /CANARY-REACHED/);
      }
      for (const c of canaries) c.hits = 0;
    },
  );

  test('curl, node and python cannot connect to a socket outside the workspace, with or without network', { skip }, async () => {
    for (const c of canaries) {
      for (const allowNetwork of [false, true]) {
        const node = `node -e "require('net').connect('${c.socket}').on('connect',()=>console.log('CONNECTED')).on('error',e=>console.log('node:'+e.code))"`;
        const py = hasPython
          ? `python3 -c "import socket
try:
  s=socket.socket(socket.AF_UNIX); s.connect('${c.socket}'); print('CONNECTED')
except OSError as e: print('python:'+str(e.errno))"`
          : 'true';
        const r = await run(`curl -sS --max-time 5 --unix-socket ${c.socket} http://x/; ${node}; ${py}`, { allowNetwork });
        assert.doesNotMatch(r.stdout, /CANARY-REACHED|CONNECTED/, r.stdout);
        assert.match(r.stdout, /node:(EPERM|ENOENT)/, r.stderr);
        if (hasPython) assert.match(r.stdout, /python:(1|2)\b/);
      }
      assert.equal(c.hits, 0, `${c.socket} was reached`);
    }
  });

  test('/run is an empty tmpfs but for what commands need (resolv.conf still reads)', { skip }, async () => {
    const r = await run('ls -A /run; cat /etc/resolv.conf >/dev/null && echo RESOLV-OK');
    for (const c of canaries) assert.ok(!r.stdout.includes(path.basename(c.dir)), r.stdout);
    if (existsSync('/etc/resolv.conf')) assert.match(r.stdout, /RESOLV-OK/);
  });

  test('socketpair keeps working: node fork() IPC, worker threads, python socketpair and multiprocessing', { skip }, async () => {
    writeFileSync(
      path.join(ws, 'ipc.js'),
      [
        "const cp = require('child_process');",
        "if (process.argv[2] === 'child') process.on('message', (m) => { process.send('pong:' + m); process.exit(0); });",
        "else { const c = cp.fork(__filename, ['child']); c.on('message', (m) => console.log('ipc ' + m)); c.send('ping'); }",
      ].join('\n'),
    );
    const r = await run('node ipc.js');
    assert.equal(r.stdout, 'ipc pong:ping\n', r.stderr);
    if (hasPython) {
      const py = await run(`python3 -c "import socket, multiprocessing as mp
a, b = socket.socketpair(); a.send(b'x'); print('pair', b.recv(1).decode())
def sq(x): return x * x
if __name__ == '__main__':
  with mp.Pool(2) as p: print('pool', sum(p.map(sq, range(4))))"`);
      assert.equal(py.stdout, 'pair x\npool 14\n', py.stderr);
    }
  });

  test('TCP sockets are untouched: with allowNetwork a 127.0.0.1 server is reached', { skip }, async () => {
    const server = http.createServer((_q, res) => res.end('TCP-OK\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const r = await run(`curl -sS --max-time 5 http://127.0.0.1:${port}/`, { allowNetwork: true });
      assert.equal(r.stdout, 'TCP-OK\n', r.stderr);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  test(
    'allowUnixSockets: the named socket is reachable (even under the hidden /run), every other known socket stays masked',
    { skip: skip || (canaries.length === 2 ? false : 'needs /run and /var/tmp') },
    async () => {
      const [allowed, other] = canaries as [SocketCanary, SocketCanary];
      const r = await runCommand({
        command: `curl -sS --max-time 5 --unix-socket ${allowed.socket} http://x/; curl -sS --max-time 5 --unix-socket ${other.socket} http://x/`,
        cwd: ws,
        workspaceRoot: ws,
        sandbox: 'require',
        allowUnixSockets: [allowed.socket],
      });
      assert.equal(r.stdout, 'CANARY-REACHED\n', r.stderr);
      assert.equal(allowed.hits, 1);
      assert.equal(other.hits, 0);
      allowed.hits = 0;
    },
  );

  test(
    'the other doors on x86_64 are closed too: i386 socket and socketcall, x32, junk in the high half of the domain',
    { skip: skip || (process.arch === 'x64' && hasPython ? false : 'x86_64 with python3 only') },
    async () => {
      const outside = await runCommand({ command: `python3 ${COMPAT}`, cwd: ws, workspaceRoot: ws, sandbox: 'off' });
      const inside = await run(`python3 ${COMPAT}`);
      const parse = (s: string) =>
        Object.fromEntries(
          s
            .trim()
            .split('\n')
            .map((l) => l.split(' ') as [string, string]),
        );
      const before = parse(outside.stdout);
      const after = parse(inside.stdout);
      assert.equal(after['x64-socket-highbits'], '-1', inside.stdout + inside.stderr);
      assert.equal(after['x32-socket'], '-1');
      for (const door of ['i386-socket', 'i386-socketcall']) {
        if (before[door] === 'fd') assert.equal(after[door], '-1', `${door}: ${inside.stdout}`);
      }
      // socketcall's other sub-calls stay allowed: socketpair through the compat ABI still works.
      if (before['i386-socketpair'] === 'fd') assert.equal(after['i386-socketpair'], 'fd');
    },
  );
});
