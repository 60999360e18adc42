/**
 * Where PatchPilot's own git calls find the repository: we find it, git never does. Git's discovery
 * would accept a bare layout the agent wrote into the workspace (HEAD + objects/ + refs/, with a
 * core.worktree), follow a `.git/commondir` to a planted config, or a `.git` symlink to anywhere.
 * Here only a real `.git` folder (or a gitfile pointing outside the workspace, as linked worktrees
 * and submodules have) counts, looked for at the workspace root and then above it (a workspace that
 * is a folder of a larger repository), never below it. The caller passes the result to git as
 * --git-dir/--work-tree, so git does no discovery of its own.
 */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { gitDirLayoutAt } from '../policy/path/bareRepo';

export type RepoLayout =
  | { kind: 'repo'; gitDir: string; workTree: string }
  | { kind: 'none' }
  /** Looks tampered with: git must not run on it at all. */
  | { kind: 'refused'; reason: string };

/** `root`: the workspace root as a real path (no symlinks). */
export function locateRepository(root: string): RepoLayout {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const found = atDotGit(dir, root);
    if (found) return found;
    if (path.dirname(dir) === dir) return { kind: 'none' };
  }
}

function atDotGit(workTree: string, root: string): RepoLayout | undefined {
  const dotGit = path.join(workTree, '.git');
  let st;
  try {
    st = lstatSync(dotGit);
  } catch {
    return undefined;
  }
  const refuse = (why: string): RepoLayout => ({
    kind: 'refused',
    reason: `${dotGit} ${why}; PatchPilot does not run git on a repository that may have been tampered with.`,
  });
  if (st.isSymbolicLink()) return refuse('is a symbolic link');
  if (st.isDirectory()) {
    // In a main repository's .git a commondir file has no business: git would read config, hooks
    // and objects from wherever it points (a folder the agent wrote).
    if (lstatSync(path.join(dotGit, 'commondir'), { throwIfNoEntry: false })) return refuse('contains a commondir file');
    return gitDirLayoutAt(dotGit) ? { kind: 'repo', gitDir: dotGit, workTree } : refuse('is not a git directory');
  }
  if (!st.isFile()) return refuse('is not a file or a directory');
  return viaGitfile(dotGit, workTree, root, refuse);
}

/** `.git` as a file, `gitdir: <path>`: a linked worktree or a submodule checkout. */
function viaGitfile(dotGit: string, workTree: string, root: string, refuse: (why: string) => RepoLayout): RepoLayout {
  const target = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(dotGit, 'utf8'))?.[1];
  if (target === undefined) return refuse('is a file without a "gitdir:" line');
  let gitDir: string;
  try {
    gitDir = realpathSync(path.resolve(workTree, target));
  } catch {
    return refuse(`points to ${target}, which does not exist`);
  }
  // Inside the workspace the agent could have written it; real worktree and submodule git
  // directories live in the main repository's .git, outside the checkout.
  if (isInside(root, gitDir)) return refuse(`points to ${gitDir}, inside the workspace`);
  const commondir = path.join(gitDir, 'commondir');
  if (lstatSync(commondir, { throwIfNoEntry: false })) {
    let common: string;
    try {
      common = realpathSync(path.resolve(gitDir, readFileSync(commondir, 'utf8').trim()));
    } catch {
      return refuse(`points to ${gitDir}, whose commondir does not resolve`);
    }
    if (isInside(root, common)) return refuse(`points to ${gitDir}, whose commondir leads into the workspace`);
  }
  return gitDirLayoutAt(gitDir) ? { kind: 'repo', gitDir, workTree } : refuse(`points to ${gitDir}, which is not a git directory`);
}

function isInside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}
