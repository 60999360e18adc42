import { simpleGit, type SimpleGit } from 'simple-git';

/** The repository's state when a run starts, recorded so the user can see (and undo to) where it began. */
export interface GitSnapshot {
  isRepo: boolean;
  /** Commit sha, or null in a repository without commits (or outside one). */
  head: string | null;
  branch: string | null;
  /** Workspace-relative paths with uncommitted changes (staged, unstaged, untracked). */
  dirty: string[];
}

export async function snapshotGit(root: string): Promise<GitSnapshot> {
  const git = simpleGit({ baseDir: root });
  let isRepo = false;
  try {
    isRepo = await git.checkIsRepo();
  } catch {
    isRepo = false;
  }
  if (!isRepo) return { isRepo: false, head: null, branch: null, dirty: [] };
  const status = await git.status();
  let head: string | null = null;
  try {
    head = (await git.revparse(['--verify', '-q', 'HEAD'])).trim() || null;
  } catch {
    head = null; // no commits yet
  }
  const dirty = status.files.map((f) => f.path).sort();
  return { isRepo: true, head, branch: status.current ?? null, dirty };
}

/**
 * Commits exactly the given paths (additions, edits, deletions) and nothing else the user has
 * staged. Returns the new commit's sha, or null when those paths have no change to commit.
 */
export async function commitPaths(root: string, paths: readonly string[], message: string): Promise<string | null> {
  if (paths.length === 0) return null;
  const git = simpleGit({ baseDir: root });
  await git.raw(['add', '-A', '--', ...paths]);
  const staged = (await git.raw(['diff', '--cached', '--name-only', '--', ...paths])).trim();
  if (!staged) return null;
  await git.raw([...(await identityFlags(git)), 'commit', '-q', '-m', message, '--', ...paths]);
  return (await git.revparse(['HEAD'])).trim();
}

/** A machine without user.name/email would make `git commit` fail: supply PatchPilot's identity only then. */
async function identityFlags(git: SimpleGit): Promise<string[]> {
  const get = async (key: string) => {
    try {
      return (await git.raw(['config', '--get', key])).trim();
    } catch {
      return '';
    }
  };
  const flags: string[] = [];
  if (!(await get('user.name'))) flags.push('-c', 'user.name=PatchPilot');
  if (!(await get('user.email'))) flags.push('-c', 'user.email=patchpilot@localhost');
  return flags;
}
