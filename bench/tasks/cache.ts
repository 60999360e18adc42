/**
 * The tasks' repositories are not committed: they live in a git-ignored cache, one bare clone a
 * repository (bench/.cache/tasks/<owner>+<name>.git). `--fill-cache-from DIR` fills it from a folder
 * of git directories (a mirror laid out as <owner>+<name>/repo, <owner>+<name>.git or <owner>+<name>).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { git } from './sh';
import type { BenchTask } from './task';

export const CACHE_DIR = path.resolve(__dirname, '../.cache/tasks');

export function cachedRepo(task: BenchTask): string {
  return path.join(CACHE_DIR, `${task.repo.replace('/', '+')}.git`);
}

/** Why the task cannot run from the cache, or null when its fix and parent commits are there. */
export function missingFromCache(task: BenchTask): string | null {
  const dir = cachedRepo(task);
  if (!existsSync(dir)) return `repository not in the cache (${path.relative(process.cwd(), dir)}); fill it with --fill-cache-from DIR`;
  for (const c of [task.fix, task.parent]) {
    try {
      git(dir, 'cat-file', '-e', `${c}^{commit}`);
    } catch {
      return `commit ${c.slice(0, 10)} is not in ${path.relative(process.cwd(), dir)}; refill it from a newer copy`;
    }
  }
  return null;
}

function sourceIn(from: string, repo: string): string | null {
  const flat = repo.replace('/', '+');
  for (const cand of [path.join(from, flat, 'repo'), path.join(from, `${flat}.git`), path.join(from, flat)]) {
    if (existsSync(path.join(cand, 'HEAD')) || existsSync(path.join(cand, '.git'))) return cand;
  }
  return null;
}

/** Clones each task's repository into the cache from `from`; returns one line a repository. */
export function fillCache(tasks: BenchTask[], from: string): string[] {
  mkdirSync(CACHE_DIR, { recursive: true });
  const lines: string[] = [];
  for (const repo of [...new Set(tasks.map((t) => t.repo))]) {
    const dest = path.join(CACHE_DIR, `${repo.replace('/', '+')}.git`);
    const src = sourceIn(from, repo);
    if (existsSync(dest)) lines.push(`${repo}: already cached`);
    else if (!src) lines.push(`${repo}: not found under ${from}`);
    else {
      git(CACHE_DIR, 'clone', '--bare', '--quiet', src, dest);
      lines.push(`${repo}: cached from ${src}`);
    }
  }
  return lines;
}
