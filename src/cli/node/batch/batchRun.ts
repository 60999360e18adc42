/**
 * Runs a batch's goals: each one a `patchpilot run --json` child process on its repository (a
 * folder as is, a URL cloned first), at most `concurrency` at a time; its events go to a file when
 * asked, its stderr to ours with the item's number, and its `result` event is what the table shows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { RunResultEvent } from '../../../protocol/runResult';
import type { BatchItem } from './batchFile';
import { cloneShallow } from '../../../core/git';

export interface ItemOutcome {
  item: BatchItem;
  exitCode: number;
  /** The item's result event; absent when it never ran (a clone failed) or died without one. */
  result?: RunResultEvent;
  /** Why the item has no result. */
  error?: string;
}

export interface BatchRunOptions {
  /** Where repositories given by URL are cloned (one folder per item). */
  workDir: string;
  /** Where each item's events go, as item-N.jsonl (none when absent). */
  eventsDir?: string;
  log: (line: string) => void;
}

const running = new Set<ChildProcess>();
/** Ctrl-C or a pod's SIGTERM reaches every running goal, which ends cancelled and saves its history. */
function forwardStopSignals(): () => void {
  const forward = (signal: NodeJS.Signals) => () => running.forEach((child) => child.kill(signal));
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  return () => handlers.forEach(([s, h]) => process.off(s, h));
}

/** Every item, `concurrency` at a time; the outcomes in the items' order. */
export async function runBatch(items: BatchItem[], concurrency: number, options: BatchRunOptions): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = new Array(items.length);
  let next = 0;
  const stop = forwardStopSignals();
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      outcomes[i] = await runItem(items[i]!, options);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  } finally {
    stop();
  }
  return outcomes;
}

async function runItem(item: BatchItem, options: BatchRunOptions): Promise<ItemOutcome> {
  const tag = `[${item.index}]`;
  let workspace: string;
  try {
    workspace = await workspaceOf(item, options.workDir, (line) => options.log(`${tag} ${line}`));
  } catch (err) {
    options.log(`${tag} ${(err as Error).message}`);
    return { item, exitCode: 1, error: (err as Error).message };
  }
  if (options.eventsDir) await mkdir(options.eventsDir, { recursive: true });
  const events = options.eventsDir ? createWriteStream(path.join(options.eventsDir, `item-${item.index}.jsonl`)) : undefined;
  const cli = process.argv[1]!;
  // Its own process group: a terminal's Ctrl-C reaches it once, forwarded (twice would stop it at once, history unsaved).
  const child = spawn(process.execPath, [cli, 'run', '--goal', item.goal, '--workspace', workspace, ...item.runArgs, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  let result: RunResultEvent | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    events?.write(`${line}\n`);
    if (line.includes('"result"')) {
      const e = JSON.parse(line) as { type?: string };
      if (e.type === 'result') result = e as RunResultEvent;
    }
  });
  createInterface({ input: child.stderr! }).on('line', (line) => options.log(`${tag} ${line}`));
  const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  running.delete(child);
  await new Promise<void>((resolve) => (events ? events.end(resolve) : resolve()));
  return { item, exitCode, result, ...(result ? {} : { error: 'the run ended without a result event (see its log)' }) };
}

/** The item's folder; a URL is cloned into workDir first (a shallow clone of its default branch). */
async function workspaceOf(item: BatchItem, workDir: string, log: (line: string) => void): Promise<string> {
  if (!item.isUrl) {
    if (!existsSync(item.repo) || !statSync(item.repo).isDirectory()) throw new Error(`${item.repo} is not a folder`);
    return item.repo;
  }
  const name =
    path
      .basename(item.repo.replace(/\/+$/, ''))
      .replace(/\.git$/, '')
      .replace(/[^\w.-]/g, '_') || 'repo';
  const dir = path.join(workDir, `${item.index}-${name}`);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} exists and is not empty: choose another --work-dir`);
  await mkdir(workDir, { recursive: true });
  log(`cloning ${item.repo} into ${dir}`);
  await cloneShallow(item.repo, dir);
  return dir;
}
