/**
 * One `patchpilot run` on a task's workspace, through the built CLI and whatever endpoint the
 * environment names (PATCHPILOT_BASE_URL, PATCHPILOT_MODEL, a provider's key). The figures come
 * from its `--json` events: steps and usage from run/finished, test time (and how many runs were the
 * whole suite) from test/finished,
 * refusals from patch/refused and the finish-refused notice. The events are kept in a log file.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { killGroup, trackGroup } from './sh';
import type { BenchTask } from './task';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');
export const RUN_LOGS = path.resolve(__dirname, '../.cache/task-runs');

export interface AgentFigures {
  status: string;
  tests: string;
  /** The CLI's exit code as its `result` event states it (docs/cli.md: 3 known failures, 4 tests failing, ...). */
  exitCode?: number;
  steps: number;
  requests: number;
  tokens: number;
  wallMs: number;
  testMs: number;
  testRuns: number;
  /** Runs that covered the whole suite, as their test/finished event says (a narrowing the runner ignored counts); the others were aimed at related tests, a rerun, or the model's narrowing. */
  wholeRuns: number;
  wholeCommand?: string;
  patchesRefused: number;
  finishesRefused: number;
  /** Why the run ended as it did, as its run/finished or result event says (a failed run's cause). */
  reason?: string;
  log: string;
}

type Usage = { requests?: number; promptTokens?: number; completionTokens?: number };

export function emptyFigures(log: string): AgentFigures {
  return {
    status: 'no-end',
    tests: '-',
    steps: 0,
    requests: 0,
    tokens: 0,
    wallMs: 0,
    testMs: 0,
    testRuns: 0,
    wholeRuns: 0,
    patchesRefused: 0,
    finishesRefused: 0,
    log,
  };
}

/** Adds one `--json` event to the figures; unknown events are ignored (the CLI may add some). */
export function tally(f: AgentFigures, e: Record<string, unknown>): void {
  if (e.type === 'test/finished') {
    f.testRuns++;
    f.testMs += Number(e.durationMs) || 0;
    f.wholeCommand ??= String(e.command);
    // The event says whether the run covered the whole suite (a narrowing the runner ignored counts);
    // events without it (an older CLI) are judged by the baseline's command.
    if (typeof e.whole === 'boolean' ? e.whole : e.command === f.wholeCommand) f.wholeRuns++;
  } else if (e.type === 'patch/refused') f.patchesRefused++;
  else if (e.type === 'model/notice' && e.kind === 'finish-refused') f.finishesRefused++;
  else if (e.type === 'result') {
    if (typeof e.exitCode === 'number') f.exitCode = e.exitCode;
    // A run that never started (bad flags, no endpoint) has only its result event.
    if (f.status === 'no-end' && typeof e.status === 'string') f.status = e.status;
    if (typeof e.reason === 'string' && e.reason) f.reason ??= e.reason;
  } else if (e.type === 'run/finished') {
    f.status = String(e.status);
    if (typeof e.reason === 'string' && e.reason) f.reason = e.reason;
    f.tests = String(e.tests ?? '-');
    f.steps = Number(e.steps) || 0;
    const roles = Object.values((e.usage ?? {}) as Record<string, Usage | number>).filter((u): u is Usage => typeof u === 'object');
    f.requests = roles.reduce((n, u) => n + (u.requests ?? 0), 0);
    f.tokens = roles.reduce((n, u) => n + (u.promptTokens ?? 0) + (u.completionTokens ?? 0), 0);
  }
}

/**
 * Why a run that failed before its first model request did: then the judge's test tail only shows the
 * untouched bug, and this is what the reader needs (an endpoint not reached, a bad flag). Undefined
 * when the model was asked at least once or the run did not fail.
 */
export function failureBeforeModel(f: AgentFigures): string | undefined {
  if (f.requests > 0 || f.status === 'finished') return undefined;
  if (f.reason) return f.reason;
  return f.status === 'no-end' ? `the CLI ended without a result event (see ${f.log.slice(0, -6)}.stderr.txt)` : undefined;
}

export function runAgent(task: BenchTask, root: string, extraArgs: string[], timeoutMs: number): Promise<AgentFigures> {
  mkdirSync(RUN_LOGS, { recursive: true });
  const log = path.join(RUN_LOGS, `${task.name}-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`);
  const f = emptyFigures(log);
  const args = [CLI, 'run', '--workspace', root, '--goal', task.goal, '--approve', 'auto', '--json'];
  if (task.testCmd) args.push('--test-cmd', task.testCmd);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args, ...extraArgs], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const untrack = trackGroup(child.pid);
    const out = createWriteStream(log);
    child.stderr.pipe(createWriteStream(`${log.slice(0, -6)}.stderr.txt`));
    createInterface({ input: child.stdout }).on('line', (line) => {
      out.write(`${line}\n`);
      try {
        tally(f, JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not an event line
      }
    });
    const timer = setTimeout(() => killGroup(child.pid), timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      untrack();
      out.end();
      f.wallMs = Date.now() - started;
      resolve(f);
    });
  });
}
