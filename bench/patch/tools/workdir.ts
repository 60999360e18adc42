/**
 * Temporary directories for the baselines that work on real files (git apply, GNU patch): the
 * case's files are written out, the tool runs, and the resulting tree is read back.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchCase } from '../kinds/types';
import type { ToolResult } from './types';

let root: string | undefined;
let counter = 0;

function benchRoot(): string {
  if (!root) {
    root = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-patch-'));
    process.on('exit', () => rmSync(root as string, { recursive: true, force: true }));
  }
  return root;
}

export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(dir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** Every file under dir, except reject/backup files the tool left that were not inputs. */
export function readTree(dir: string, inputs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const rel = path.relative(dir, full).split(path.sep).join('/');
        if (/\.(rej|orig)$/.test(rel) && !(rel in inputs)) continue;
        out[rel] = readFileSync(full, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

/** `-p1` when every path in the patch has an `a/`/`b/` prefix, else `-p0` (what a user would pick). */
export function stripLevel(patch: string): 0 | 1 {
  const paths = patch
    .split('\n')
    .filter((l) => l.startsWith('--- ') || l.startsWith('+++ '))
    .map((l) => l.slice(4).replace(/\r$/, '').replace(/\t.*/, '').trim())
    .filter((p) => p !== '/dev/null');
  return paths.length > 0 && paths.every((p) => /^[ab]\//.test(p)) ? 1 : 0;
}

function exec(cmd: string, args: string[], cwd: string): Promise<{ code: number; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Never let git find a repository above the temp dir.
      env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(cwd), LC_ALL: 'C' },
    });
    // GNU patch reports on stdout, git on stderr: keep both for the failure reason.
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => resolve({ code: -1, stderr: err.message, ms: performance.now() - started }));
    child.on('close', (code) => resolve({ code: code ?? -1, stderr, ms: performance.now() - started }));
  });
}

/** Runs `cmd args... <patchfile>` in a fresh tree holding the case's files. */
export async function runInTree(c: BenchCase, cmd: string, args: (patchFile: string) => string[]): Promise<ToolResult> {
  const caseDir = path.join(benchRoot(), `c${counter++}`);
  const tree = path.join(caseDir, 'tree');
  const patchFile = path.join(caseDir, 'patch.diff');
  mkdirSync(tree, { recursive: true });
  try {
    writeTree(tree, c.files);
    writeFileSync(patchFile, c.patch);
    const r = await exec(cmd, args(patchFile), tree);
    if (r.code !== 0) return { status: 'refused', error: r.stderr.trim().split('\n').slice(0, 3).join(' | '), ms: r.ms };
    return { status: 'applied', files: readTree(tree, c.files), ms: r.ms };
  } finally {
    rmSync(caseDir, { recursive: true, force: true });
  }
}

/** Runs `fn` over items with at most `limit` in flight, keeping results in input order. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>, onDone?: (n: number) => void): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T); // i < items.length, checked above
      onDone?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
