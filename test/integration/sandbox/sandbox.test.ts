import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCommandPolicy } from '../../../src/core/policy/command';
import { probeSandbox, runCommand } from '../../../src/core/sandbox';

const sandbox = probeSandbox();
const skipSandbox = sandbox.available ? false : `bubblewrap unusable here: ${sandbox.message}`;
// A temp HOME outside /tmp, so the sandbox shows it read-only (its private /tmp would hide it anyway).
const varTmp = existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();

let ws: string;
let home: string;
let outsideVar: string;
let outsideTmp: string;
let server: net.Server;
let port: number;
let connections = 0;

before(async () => {
  ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-sandbox-ws-')));
  home = realpathSync(mkdtempSync(path.join(varTmp, 'pp-sandbox-home-')));
  outsideVar = realpathSync(mkdtempSync(path.join(varTmp, 'pp-sandbox-out-')));
  outsideTmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-sandbox-out-')));
  mkdirSync(path.join(home, '.ssh'));
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(ws, '.vscode'));
  writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{}');
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  writeFileSync(path.join(home, '.netrc'), 'machine x password p');
  writeFileSync(path.join(home, '.bashrc'), '# original\n');
  server = net.createServer((s) => {
    connections++;
    s.end('hello');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  for (const d of [ws, home, outsideVar, outsideTmp]) rmSync(d, { recursive: true, force: true });
});

/** The script a hostile model would write first and then run through an allowed `node evil.js`. */
function writeEvilScript(): string {
  const targets = {
    rootViaTmp: `/tmp/../root/pp-evil-${process.pid}`,
    bashrc: path.join(home, '.bashrc'),
    outsideVar: path.join(outsideVar, 'pwned'),
    outsideTmp: path.join(outsideTmp, 'pwned'),
    inside: path.join(ws, 'inside.txt'),
    gitHook: path.join(ws, '.git', 'hooks', 'pre-commit'),
    vscodeSettings: path.join(ws, '.vscode', 'settings.json'),
  };
  const script = `
const fs = require('fs');
const net = require('net');
const out = { writes: {}, reads: {} };
const targets = ${JSON.stringify(targets)};
for (const [k, p] of Object.entries(targets)) {
  try { fs.appendFileSync(p, 'pwned\\n'); out.writes[k] = 'ok'; } catch (e) { out.writes[k] = e.code; }
}
for (const [k, p] of Object.entries({ ssh: ${JSON.stringify(path.join(home, '.ssh', 'id_rsa'))}, netrc: ${JSON.stringify(path.join(home, '.netrc'))} })) {
  try { out.reads[k] = fs.readFileSync(p, 'utf8'); } catch (e) { out.reads[k] = e.code; }
}
const s = net.connect(${port}, '127.0.0.1');
s.setTimeout(3000, () => { out.net = 'timeout'; s.destroy(); done(); });
s.on('data', (d) => { out.net = 'connected:' + d; s.destroy(); done(); });
s.on('error', (e) => { out.net = e.code; done(); });
let printed = false;
function done() { if (printed) return; printed = true; console.log(JSON.stringify(out)); }
`;
  writeFileSync(path.join(ws, 'evil.js'), script);
  return targets.rootViaTmp;
}

describe('sandboxed executor (real bwrap, real processes)', () => {
  test('probe result is cached and explains itself', () => {
    assert.equal(probeSandbox(), sandbox);
    assert.match(sandbox.message, sandbox.available ? /sandbox/ : /not sandboxed/);
  });

  test('a script run through an allowed command cannot write outside, read hidden secrets, or reach the network', { skip: skipSandbox }, async () => {
    const rootTarget = writeEvilScript();
    const policy = await createCommandPolicy({ trusted: true });
    assert.equal(policy.check({ command: 'node evil.js', workspaceRoot: ws, cwd: ws, homeDir: home }).verdict, 'allow');
    const before = connections;
    const r = await runCommand({ command: 'node evil.js', cwd: ws, workspaceRoot: ws, homeDir: home, env: { ...process.env, HOME: home }, timeoutMs: 30_000 });
    assert.equal(r.sandboxed, true);
    assert.equal(r.exitCode, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { writes: Record<string, string>; reads: Record<string, string>; net: string };
    assert.equal(out.writes.inside, 'ok', 'the workspace stays writable');
    assert.equal(readFileSync(path.join(ws, 'inside.txt'), 'utf8'), 'pwned\n');
    assert.equal(out.writes.rootViaTmp, 'EROFS');
    // The home is hidden behind an empty tmpfs: the write lands there and is thrown away.
    assert.ok(['EROFS', 'ok'].includes(out.writes.bashrc!), out.writes.bashrc);
    assert.equal(out.writes.outsideVar, 'EROFS');
    // Paths that would run code later, outside the sandbox, stay read-only inside the workspace.
    assert.equal(out.writes.gitHook, 'EROFS');
    assert.equal(out.writes.vscodeSettings, 'EROFS');
    assert.equal(readFileSync(path.join(ws, '.vscode', 'settings.json'), 'utf8'), '{}');
    // /tmp is private to the sandbox: the write lands in a throwaway tmpfs, never on the host.
    assert.equal(existsSync(path.join(outsideTmp, 'pwned')), false);
    assert.equal(existsSync(rootTarget), false);
    assert.equal(readFileSync(path.join(home, '.bashrc'), 'utf8'), '# original\n');
    assert.equal(out.reads.ssh, 'ENOENT', '~/.ssh is hidden with the rest of the home');
    assert.equal(out.reads.netrc, 'ENOENT', '~/.netrc is hidden with the rest of the home');
    assert.notEqual(out.net.slice(0, 9), 'connected');
    assert.equal(connections, before, 'no connection reached the host');
  });

  test('with allowNetwork the same script reaches a 127.0.0.1 server', { skip: skipSandbox }, async () => {
    writeEvilScript();
    const before = connections;
    const r = await runCommand({ command: 'node evil.js', cwd: ws, workspaceRoot: ws, homeDir: home, allowNetwork: true, timeoutMs: 30_000 });
    assert.equal(r.sandboxed, true);
    const out = JSON.parse(r.stdout) as { net: string };
    assert.equal(out.net, 'connected:hello');
    assert.equal(connections, before + 1);
  });

  test('capabilities are dropped even when we run as root (no remount of / read-write)', { skip: skipSandbox }, async () => {
    const r = await runCommand({
      command: 'grep CapEff /proc/self/status; mount -o remount,rw / 2>&1; touch /pp-remount-probe 2>&1; true',
      cwd: ws,
      workspaceRoot: ws,
      homeDir: home,
    });
    assert.match(r.stdout, /CapEff:\s*0+\n/);
    assert.equal(existsSync('/pp-remount-probe'), false);
  });

  for (const mode of ['auto', 'off'] as const) {
    const skip = mode === 'auto' ? skipSandbox : false;
    test(`cancel kills the whole process tree, grandchildren included (sandbox ${mode})`, { skip }, async () => {
      const marker = `${900 + (mode === 'auto' ? 1 : 2)}.${process.pid % 1000}`;
      const escape = mode === 'auto' ? `(setsid sleep ${marker} &);` : '';
      const command = `sleep ${marker} & bash -c 'sleep ${marker} & sleep ${marker}' & ${escape} sleep ${marker}`;
      const ac = new AbortController();
      const running = runCommand({ command, cwd: ws, workspaceRoot: ws, homeDir: home, signal: ac.signal, sandbox: mode, killGraceMs: 500 });
      await waitFor(() => processesWith(marker).length >= (mode === 'auto' ? 5 : 4));
      ac.abort();
      const r = await running;
      assert.equal(r.cancelled, true);
      assert.equal(r.sandboxed, mode === 'auto');
      await waitFor(() => processesWith(marker).length === 0, 3000);
      assert.deepEqual(processesWith(marker), []);
    });
  }

  test('timeout: timedOut set, the tree is gone', async () => {
    const marker = `903.${process.pid % 1000}`;
    const r = await runCommand({ command: `sleep ${marker} & sleep ${marker}`, cwd: ws, workspaceRoot: ws, homeDir: home, timeoutMs: 300, killGraceMs: 300 });
    assert.equal(r.timedOut, true);
    assert.equal(r.cancelled, false);
    assert.equal(r.exitCode, null);
    await waitFor(() => processesWith(marker).length === 0, 3000);
    assert.deepEqual(processesWith(marker), []);
  });

  test('background jobs left behind by a finished command do not survive it', async () => {
    const marker = `904.${process.pid % 1000}`;
    const r = await runCommand({ command: `sleep ${marker} & echo started`, cwd: ws, workspaceRoot: ws, homeDir: home });
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, 'started\n');
    await waitFor(() => processesWith(marker).length === 0, 3000);
    assert.deepEqual(processesWith(marker), []);
  });

  test('output over the memory cap is kept whole (spilled to a temporary file)', async () => {
    const r = await runCommand({
      command: "echo START; head -c 200000 /dev/zero | tr '\\0' a; echo; echo END >&1; echo err >&2",
      cwd: ws,
      workspaceRoot: ws,
      homeDir: home,
      maxOutputBytes: 1000,
    });
    assert.equal(r.exitCode, 0);
    assert.ok(r.stdout.startsWith('START\n'));
    assert.ok(r.stdout.endsWith('END\n'));
    assert.equal(r.stdout.length, 6 + 200000 + 1 + 4);
    assert.equal(r.stdoutDroppedBytes, 0);
    assert.equal(r.stderr, 'err\n');
    assert.equal(r.stderrDroppedBytes, 0);
  });

  test('exit codes and signals come back as they are', async () => {
    assert.equal((await runCommand({ command: 'exit 3', cwd: ws, workspaceRoot: ws })).exitCode, 3);
    const killed = await runCommand({ command: 'kill -TERM $$', cwd: ws, workspaceRoot: ws, sandbox: 'off' });
    assert.equal(killed.signal, 'SIGTERM');
  });

  test('cwd outside the workspace, or missing, is refused with a clear error', async () => {
    await assert.rejects(runCommand({ command: 'true', cwd: outsideVar, workspaceRoot: ws }), /outside the workspace/);
    await assert.rejects(runCommand({ command: 'true', cwd: path.join(ws, 'nope'), workspaceRoot: ws }), /not an existing directory/);
    await assert.rejects(runCommand({ command: 'true', cwd: ws, workspaceRoot: ws, maxOutputBytes: -1 }), /maxOutputBytes/);
  });

  test('only allowlisted variables reach the command; credentials never, even when the user lists their names', async () => {
    const env = { ...process.env, OPENAI_API_KEY: 'sk-secret', MY_SERVICE_TOKEN: 't', AWS_SECRET_ACCESS_KEY: 'a', HARMLESS: 'ok' };
    const cmd = 'echo "${OPENAI_API_KEY:-none} ${MY_SERVICE_TOKEN:-none} ${AWS_SECRET_ACCESS_KEY:-none} ${HARMLESS:-none}"';
    assert.equal((await runCommand({ command: cmd, cwd: ws, workspaceRoot: ws, env })).stdout, 'none none none none\n');
    const envAllow = ['HARMLESS', 'MY_SERVICE_TOKEN'];
    assert.equal((await runCommand({ command: cmd, cwd: ws, workspaceRoot: ws, env, envAllow })).stdout, 'none none none ok\n');
  });

  test('an already-cancelled signal runs nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await runCommand({ command: `touch ${path.join(ws, 'should-not-exist')}`, cwd: ws, workspaceRoot: ws, signal: ac.signal });
    assert.equal(r.cancelled, true);
    assert.equal(existsSync(path.join(ws, 'should-not-exist')), false);
  });

  test('without the sandbox the result says so in words the UI can show', async () => {
    const r = await runCommand({ command: 'true', cwd: ws, workspaceRoot: ws, sandbox: 'off' });
    assert.equal(r.sandboxed, false);
    assert.match(r.sandboxMessage ?? '', /commands are not sandboxed/);
  });
});

/** Live processes whose command line contains the marker (zombies excluded). */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmd.includes(marker) && state !== 'Z') out.push(Number(e));
    } catch {
      /* exited */
    }
  }
  return out;
}

async function waitFor(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}
