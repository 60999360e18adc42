import { SafeGit } from './safeGit';

/** The repository's state when a run starts, recorded so the user can see (and undo to) where it began. */
export interface GitSnapshot {
  isRepo: boolean;
  /** Commit sha, or null in a repository without commits (or outside one). */
  head: string | null;
  branch: string | null;
  /** Workspace-relative paths with uncommitted changes (staged, unstaged, untracked). */
  dirty: string[];
  /** Set when a repository is there but looks tampered with, so git was not run (and no auto-commit). */
  warning?: string;
}

const NOT_A_REPO: GitSnapshot = { isRepo: false, head: null, branch: null, dirty: [] };

export async function snapshotGit(root: string): Promise<GitSnapshot> {
  const opened = await SafeGit.open(root).catch(() => ({ kind: 'none' as const }));
  if (opened.kind === 'none') return NOT_A_REPO;
  if (opened.kind === 'refused') return { ...NOT_A_REPO, warning: `git: ${opened.reason}` };
  const { git } = opened;
  let status: string;
  try {
    status = await git.run('status', ['--porcelain=v1', '-z', '--untracked-files=all']);
  } catch {
    return NOT_A_REPO; // a broken repository (or no git binary): the run goes on without git
  }
  const head = (await git.run('rev-parse', ['--verify', '-q', 'HEAD']).catch(() => '')).trim() || null;
  const branch = (await git.run('symbolic-ref', ['-q', '--short', 'HEAD']).catch(() => '')).trim() || null;
  return { isRepo: true, head, branch, dirty: statusPaths(status) };
}

/** Paths of `status --porcelain=v1 -z`: "XY path", and a rename's source as the next record. */
function statusPaths(out: string): string[] {
  const records = out.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r === undefined || r.length < 4) continue;
    paths.push(r.slice(3));
    if (r[0] === 'R' || r[0] === 'C') i++; // skip the original name
  }
  return [...new Set(paths)].sort();
}

/**
 * Commits exactly the given paths (additions, edits, deletions) and nothing else the user has
 * staged. Returns the new commit's sha, or null when those paths have no change to commit.
 * Throws when the repository looks tampered with: the reason reaches the model and the user.
 */
export async function commitPaths(root: string, paths: readonly string[], message: string): Promise<string | null> {
  if (paths.length === 0) return null;
  const opened = await SafeGit.open(root);
  if (opened.kind === 'none') throw new Error('the workspace is no longer a git repository');
  if (opened.kind === 'refused') throw new Error(opened.reason);
  const { git } = opened;
  await git.run('add', ['-A', '--', ...paths]);
  const staged = (await git.run('diff', ['--cached', '--name-only', '--', ...paths])).trim();
  if (!staged) return null;
  await git.run('commit', ['-q', '-m', message, '--', ...paths], identityDefaults(git));
  return (await git.run('rev-parse', ['HEAD'])).trim();
}

/** A machine without user.name/email would make `git commit` fail: supply PatchPilot's identity only then. */
function identityDefaults(git: SafeGit): [string, string][] {
  const out: [string, string][] = [];
  if (!git.hasConfig('user.name')) out.push(['user.name', 'PatchPilot']);
  if (!git.hasConfig('user.email')) out.push(['user.email', 'patchpilot@localhost']);
  return out;
}
