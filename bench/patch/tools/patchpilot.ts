/**
 * PatchPilot through its CLI contract: ONE `patchpilot patch eval --jsonl -` process over the whole
 * corpus, one JSON line in and one out per case; `ms` is the engine's own in-process apply time.
 * If the process dies mid-corpus, the case it died on is recorded as refused (with the crash) and
 * a new process continues with the rest, so one crash does not hide every later result.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Tool, ToolResult } from './types';

let cli = path.resolve('dist/cli.js');

/** Points the tool at another CLI bundle (the `--cli` flag). */
export function useCli(file: string): void {
  cli = path.resolve(file);
}
const MAX_RESTARTS = 5;
const TIMEOUT_MS = 10 * 60_000;

interface EvalLine {
  id?: unknown;
  status?: unknown;
  files?: unknown;
  error?: unknown;
  ms?: unknown;
}

interface EvalRun {
  results: Map<string, ToolResult>;
  code: number | null;
  stderr: string;
}

export interface EvalInput {
  id: string;
  files: Record<string, string>;
  patch: string;
}

/** Spawns one eval process over `inputs` and parses what it printed. */
export function runEval(inputs: EvalInput[], onLine?: (n: number) => void): Promise<EvalRun> {
  return new Promise((resolve) => {
    const results = new Map<string, ToolResult>();
    if (!existsSync(cli)) {
      resolve({ results, code: null, stderr: `${cli} not found (run npm run build)` });
      return;
    }
    const child = spawn(process.execPath, [cli, 'patch', 'eval', '--jsonl', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    let buffered = '';
    let stderr = '';
    const take = (line: string): void => {
      if (line.trim() === '') return;
      let parsed: EvalLine;
      try {
        parsed = JSON.parse(line) as EvalLine;
      } catch {
        return; // not a result line; counted as a missing result below
      }
      if (typeof parsed.id !== 'string') return;
      const applied = parsed.status === 'applied';
      const files = parsed.files && typeof parsed.files === 'object' ? (parsed.files as Record<string, string>) : undefined;
      results.set(parsed.id, {
        status: applied ? 'applied' : 'refused',
        files: applied ? files : undefined,
        error: typeof parsed.error === 'string' ? parsed.error : applied ? undefined : `status ${JSON.stringify(parsed.status)}`,
        ms: typeof parsed.ms === 'number' ? parsed.ms : NaN,
      });
      onLine?.(results.size);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        take(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined); // the process may exit before reading everything
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ results, code: null, stderr: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      take(buffered);
      resolve({ results, code, stderr });
    });
    child.stdin.end(inputs.map((c) => JSON.stringify({ id: c.id, files: c.files, patch: c.patch })).join('\n') + '\n');
  });
}

function summary(run: EvalRun): string {
  const text = run.stderr.trim().split('\n').slice(0, 2).join(' | ').slice(0, 300);
  return `eval exited ${run.code ?? 'abnormally'}${text ? `: ${text}` : ''}`;
}

export const patchpilot: Tool = {
  name: 'patchpilot',
  command: 'patchpilot patch eval --jsonl - (one process; ms = engine time)',
  spawns: false,
  supports: () => true,
  async runAll(cases, onProgress) {
    const all = new Map<string, ToolResult>();
    let pending = cases;
    for (let attempt = 0; attempt <= MAX_RESTARTS && pending.length > 0; attempt++) {
      const run = await runEval(pending, (n) => onProgress?.(all.size + n));
      for (const [id, r] of run.results) all.set(id, r);
      const [diedOn, ...missingAfter] = pending.filter((c) => !all.has(c.id));
      if (diedOn === undefined) break;
      const missing = [diedOn, ...missingAfter];
      if (run.results.size === 0 || run.code === 0) {
        // Nothing came back (no such command yet, a crash on start), or a clean exit that skipped
        // cases: those cases count as refused, with the reason.
        const why = run.code === 0 ? 'no result line for this case' : summary(run);
        for (const c of missing) all.set(c.id, { status: 'refused', error: why, ms: NaN });
        break;
      }
      // The first case without a result is the one it died on; continue after it.
      all.set(diedOn.id, { status: 'refused', error: `no result: ${summary(run)}`, ms: NaN });
      pending = missingAfter;
    }
    for (const c of cases) if (!all.has(c.id)) all.set(c.id, { status: 'refused', error: 'no result', ms: NaN });
    return all;
  },
};
