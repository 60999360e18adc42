/**
 * Shell commands for the real-task benchmark: a task's install and judge commands are shell lines
 * (`npm install ...`, `TZ=... npx jest ...`), run with a time limit. A timed-out command's whole
 * process group is killed, so a hung test runner does not outlive the benchmark.
 */
import { spawn, execFileSync } from 'node:child_process';

export interface ShellResult {
  code: number | null;
  timedOut: boolean;
  ms: number;
  /** The last lines of stdout and stderr together: enough to say why a judge failed. */
  tail: string;
}

const TAIL_CHARS = 4000;

/** Process groups still running: detached, they would outlive a benchmark stopped with Ctrl-C. */
const live = new Set<number>();

export function trackGroup(pid: number | undefined): () => void {
  if (pid !== undefined) live.add(pid);
  return () => {
    if (pid !== undefined) live.delete(pid);
  };
}

/** Kills every running install, judge and agent run, then exits: for SIGINT and SIGTERM. */
export function killAllOnSignal(): void {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      for (const pid of live) killGroup(pid);
      process.exit(130);
    });
  }
}

export function runShell(command: string, cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<ShellResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    // detached: the child leads its own process group, which the timeout kills whole.
    const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const untrack = trackGroup(child.pid);
    let out = '';
    const keep = (b: Buffer) => {
      out = (out + b.toString('utf8')).slice(-TAIL_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      untrack();
      resolve({ code, timedOut, ms: Date.now() - started, tail: out });
    });
  });
}

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** git with the benchmark's identity, so commits in a task's workspace work on any machine. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}
