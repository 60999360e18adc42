// Shared by the end-to-end tests of `patchpilot run`: the built binary, spawned plainly or on a real
// pseudo-terminal (util-linux `script`), a temp git repository, the scripted model server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ScriptedModelServer, type Script, type ScriptedTurn } from '../../support/scriptedModel';
import { gitInit, tempWorkspace } from '../../unit/tools/helpers';
import { BUGGY } from '../../unit/orchestrator/harness';

export const CLI = path.resolve(__dirname, '../../../dist/cli.js');
export const skipWithoutBuild = existsSync(CLI) ? false : 'run npm run build first';
export const skipWithoutScript = spawnSync('script', ['--version']).status === 0 ? false : 'util-linux script (a pty) is not installed';
export const call = (name: string, args: Record<string, unknown>, id?: string) => ({ name, arguments: args, ...(id ? { id } : {}) });

export interface CliRun {
  code: number | null;
  /** The signal that ended the process, if one did. */
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export type AgentEventLine = { type: string; [k: string]: unknown };

export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATCHPILOT_API_KEY: 'test-key', ...extra };
  delete env.NODE_TEST_CONTEXT;
  delete env.OPENAI_API_KEY;
  return env;
}

/** `patchpilot run ARGS` without a terminal (stdin ignored, pipes for stdout and stderr). */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; command?: string; onStderr?: (text: string, child: ChildProcess) => void } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, options.command ?? 'run', ...args], { env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    options.onStderr?.(stderr, child);
  });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** `patchpilot run --goal GOAL` in `root` against the scripted server (auto-edit, --json), plus `extra` flags. */
export function runGoal(goal: string, root: string, server: { baseUrl: string }, extra: string[] = []): Promise<CliRun> {
  return runCli(['--goal', goal, '--workspace', root, '--approve', 'auto-edit', ...extra, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json']);
}

export const events = (stdout: string): AgentEventLine[] =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AgentEventLine);

/** A temp git repo with the buggy add() and its test, and a scripted model server; both cleaned up. */
export async function withRepo(
  turns: ScriptedTurn[] | Script,
  fn: (root: string, server: ScriptedModelServer) => Promise<void>,
  files: Record<string, string> = BUGGY,
): Promise<void> {
  const ws = tempWorkspace(files);
  gitInit(ws.root);
  const server = await ScriptedModelServer.start(turns);
  try {
    await fn(ws.root, server);
  } finally {
    await server.close();
    ws.cleanup();
  }
}

/** `patchpilot history list --json` of a workspace. */
export async function historyRuns(
  root: string,
): Promise<{ id: string; goal: string; status: string; patchCount: number; testRunCount: number; steps: number }[]> {
  const r = await runCli(['list', '--cwd', root, '--json'], { command: 'history' });
  if (r.code !== 0) throw new Error(`history list failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Running `sleep SECONDS` processes (what is left of a process tree after a kill); use a unique SECONDS. */
export function sleepers(seconds: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (path.basename(argv[0]!) === 'sleep' && argv[1] === seconds && state !== 'Z') found.push(`${pid}: ${argv.join(' ').trim()}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** A `sleep` duration no other test uses, so survivors can be looked for by it. */
export function uniqueSleep(): string {
  return `${300 + (process.pid % 500)}.${String(Date.now() % 1000).padStart(3, '0')}`;
}

/**
 * `patchpilot ARGS` on a real pseudo-terminal: `script` gives the CLI a tty for stdin and its
 * output, forwards what we write (keys: '\r' Enter, '\x03' Ctrl-C, '\x04' Ctrl-D) and returns the
 * CLI's exit code (-e). `text` is everything the terminal showed, escape sequences removed.
 */
export class PtySession {
  private raw = '';
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: NodeJS.ProcessEnv = {}) {
    const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
    this.child = spawn('script', ['-qfec', command, '/dev/null'], { env: cliEnv({ TERM: 'xterm', ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => (this.raw += d));
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.raw += d));
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  get text(): string {
    return stripVTControlCharacters(this.raw).replace(/\r/g, '');
  }

  /** Waits until the output (from `from` on) matches; returns the index just after the match. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 15_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.text.slice(from);
      const m = pattern.exec(rest);
      if (m) return from + m.index + m[0].length;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; the terminal showed:\n${this.text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  type(keys: string): void {
    this.child.stdin!.write(keys);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
