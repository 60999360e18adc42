/**
 * Git directories that are not called `.git`. Git treats ANY folder holding a HEAD file plus
 * `objects/` and `refs/` (or a `commondir` file naming where those live) as a repository: a bare
 * one, or, with `core.worktree` in its `config`, one with a work tree. A git run inside such a
 * folder (the user's shell, an editor's git integration scanning subfolders) reads that `config`
 * and may run its fsmonitor, hooks, filters or pager. So the parts of such a folder are protected
 * paths wherever they appear, like `.git/` itself. Plain files named `config` or `HEAD` elsewhere
 * (src/config/x.ts) are not affected: only a folder with git's own layout counts.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';

/** Entries of a git directory that configure it or change what it is (lower case). */
const GIT_DIR_PARTS = new Set([
  'head',
  'config',
  'config.worktree',
  'commondir',
  'gitdir',
  'packed-refs',
  'objects',
  'refs',
  'hooks',
  'info',
  'worktrees',
  'modules',
]);

type Kind = 'file' | 'dir' | 'none';

function kindOf(abs: string): Kind {
  try {
    const st = lstatSync(abs);
    return st.isDirectory() ? 'dir' : 'file';
  } catch {
    return 'none';
  }
}

/**
 * Is `absDir` a git directory by git's rule: a HEAD file, and either `objects/` and `refs/` or a
 * `commondir` file? `adding`, a path relative to `absDir` about to be created (a file, and its
 * parent folders), counts as present: "is, or would become". Never follows symlinks; a symlinked
 * HEAD counts as a file (git accepts one).
 */
export function gitDirLayoutAt(absDir: string, adding?: string): boolean {
  const first = adding?.split(/[\\/]/).filter(Boolean) ?? [];
  const added = (name: string, as: Kind): boolean => first[0]?.toLowerCase() === name.toLowerCase() && (as === 'dir' ? first.length > 1 : first.length === 1);
  const has = (name: string, as: Kind): boolean => added(name, as) || kindOf(path.join(absDir, name)) === as;
  if (!has('HEAD', 'file')) return false;
  return has('commondir', 'file') || (has('objects', 'dir') && has('refs', 'dir'));
}

/** The same rule from a folder's entry names, for a walk that has already read them (no extra syscalls). */
export function namesFormGitDir(names: ReadonlySet<string>): boolean {
  return names.has('HEAD') && (names.has('commondir') || (names.has('objects') && names.has('refs')));
}

/** Whether an entry name is one of a git directory's own parts (case folded). */
export function isGitDirPartName(name: string): boolean {
  return GIT_DIR_PARTS.has(name.toLowerCase());
}

/**
 * The folder (workspace-relative, '' for the root) whose git-directory part `rel` is, when that
 * folder is or would become a git directory once `rel` is written; undefined otherwise. `rel` is a
 * workspace-relative POSIX path inside the real `root`. A write to it asks, in every mode.
 */
export function gitDirPartOf(root: string, rel: string): string | undefined {
  const parts = rel.split('/').filter(Boolean);
  for (const [i, part] of parts.entries()) {
    if (!GIT_DIR_PARTS.has(part.toLowerCase())) continue;
    const dir = parts.slice(0, i).join('/');
    if (gitDirLayoutAt(path.join(root, dir), parts.slice(i).join('/'))) return dir;
  }
  return undefined;
}
