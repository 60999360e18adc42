/**
 * The MCP servers the tests run for real: the reference servers from npm (everything over stdio,
 * streamable HTTP and SSE; filesystem) and test/support/mcp/testServer.mjs (dies mid-call, slow
 * calls, a description read from a file, a grandchild process). Helpers to find what is left running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { McpServerConfig } from '../../../src/core/mcp';

export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
export const TEST_SERVER = path.resolve(__dirname, 'testServer.mjs');

export function stdio(command: string, args: string[], extra: Partial<Omit<McpServerConfig & { transport: 'stdio' }, 'transport'>> = {}): McpServerConfig {
  return { transport: 'stdio', command, args, env: {}, alwaysAllow: [], disabled: false, ...extra };
}

export function http(url: string, extra: Partial<{ alwaysAllow: string[]; headers: Record<string, string>; transport: 'http' | 'sse' }> = {}): McpServerConfig {
  return { transport: extra.transport ?? 'http', url, headers: extra.headers ?? {}, alwaysAllow: extra.alwaysAllow ?? [], disabled: false };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** server-everything in its HTTP modes on a free port; `url` is its MCP endpoint. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`server-everything ${mode} did not start:\n${log}`)), 20_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (/listening on port|running on port/i.test(log)) {
        clearTimeout(t);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code}):\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

export function isAlive(pid: number): boolean {
  try {
    const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return state !== undefined && state !== 'Z';
  } catch {
    return false;
  }
}

/** Live processes whose command line contains `needle` (a unique temp path or tag). */
export function processesWith(needle: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes(needle) && isAlive(Number(pid))) found.push(`${pid}: ${cmd.trim()}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

export async function waitUntil(check: () => boolean, timeoutMs = 10_000, what = 'a condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
