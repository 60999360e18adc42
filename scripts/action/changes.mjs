// The run's changes in the action's workspace, read without touching the repository's own index or
// working tree: a temporary index gets HEAD's tree plus every file on disk (new ones included),
// from which come the unified diff, the --stat, and the tree a pull request's commit is made of.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';

/** `git ARGS` in `root` (`stdin`: its input); throws with git's message when it fails. */
export function git(root, args, env = process.env, stdin = undefined) {
  const r = spawnSync('git', args, { cwd: root, env, input: stdin, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args[0]} failed: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

/** { diff, stat, tree, head }: the changes against HEAD, leaving out `leaveOut` (the patch file, the event log). */
export function changesOf(root, leaveOut, temp) {
  const scratch = mkdtempSync(path.join(temp, 'patchpilot-index-'));
  const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, 'index') };
  try {
    const head = spawnSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim() || null;
    if (head) git(root, ['read-tree', 'HEAD'], env);
    // A pathspec outside the repository makes git refuse the whole add: only files inside are left out.
    const inside = leaveOut.map((f) => path.relative(root, f)).filter((rel) => rel && !rel.startsWith('..') && !path.isAbsolute(rel));
    git(root, ['add', '-A', '--', '.', ...inside.map((rel) => `:(exclude)${rel}`)], env);
    const base = head ? 'HEAD' : git(root, ['hash-object', '-t', 'tree', '/dev/null']).trim();
    return {
      diff: git(root, ['diff', '--cached', '--binary', base], env),
      stat: git(root, ['diff', '--cached', '--stat', base], env).trim(),
      tree: git(root, ['write-tree'], env).trim(),
      head,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
