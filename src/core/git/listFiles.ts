import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { IgnoreRules } from './ignoreRules';
import { SafeGit } from './safeGit';

export interface FileListing {
  /** Workspace-relative paths, forward slashes, sorted. Never gitignored or .patchpilotignored. */
  files: string[];
  /** More files exist than `maxFiles`. */
  truncated: boolean;
  source: 'git' | 'walk';
}

export interface ListFilesOptions {
  maxFiles?: number;
  /** Reused when the caller has one; else built for this call. */
  rules?: IgnoreRules;
  signal?: AbortSignal;
}

const DEFAULT_MAX_FILES = 50_000;

/**
 * The files the agent may see: `git ls-files` (tracked + untracked, minus ignored and deleted) in a
 * repository, else a walk that applies .gitignore files; `.patchpilotignore` always.
 */
export async function listWorkspaceFiles(root: string, options: ListFilesOptions = {}): Promise<FileListing> {
  const rules = options.rules ?? new IgnoreRules(root);
  const max = options.maxFiles ?? DEFAULT_MAX_FILES;
  // One read of .patchpilotignore for the whole listing, not a stat per file.
  const agentIgnored = rules.agentFilter.snapshot();
  const fromGit = await gitFiles(root, options.signal);
  if (fromGit) {
    const files = fromGit.filter((f) => !agentIgnored(f, false)).sort();
    return { files: files.slice(0, max), truncated: files.length > max, source: 'git' };
  }
  const files: string[] = [];
  const truncated = await walk(root, '', (rel, isDir) => rules.isGitIgnored(rel, isDir) || agentIgnored(rel, isDir), files, max, options.signal);
  return { files: files.sort(), truncated, source: 'walk' };
}

/** null when there is no usable repository (none, broken, or refused as tampered): the walk is used. */
async function gitFiles(root: string, signal?: AbortSignal): Promise<string[] | null> {
  try {
    const opened = await SafeGit.open(root, signal);
    if (opened.kind !== 'repo') return null;
    const all = await opened.git.run('ls-files', ['-z', '--cached', '--others', '--exclude-standard']);
    const deleted = new Set((await opened.git.run('ls-files', ['-z', '--deleted'])).split('\0'));
    return [...new Set(all.split('\0'))].filter((f) => f && !deleted.has(f));
  } catch {
    return null; // no git binary, a broken repository: the walk still works
  }
}

/** Depth-first walk; symlinked directories are not followed (loops, and escapes from the workspace). */
async function walk(
  root: string,
  rel: string,
  skip: (rel: string, isDir: boolean) => boolean,
  out: string[],
  max: number,
  signal?: AbortSignal,
): Promise<boolean> {
  signal?.throwIfAborted();
  let entries;
  try {
    entries = await readdir(path.join(root, rel), { withFileTypes: true });
  } catch {
    return false;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    const isDir = entry.isDirectory();
    if (skip(child, isDir)) continue;
    if (isDir) {
      if (await walk(root, child, skip, out, max, signal)) return true;
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      if (out.length >= max) return true;
      out.push(child);
    }
  }
  return false;
}
