/**
 * A task's workspace: the parent commit's files in a temporary folder, as a fresh one-commit git
 * repository. Not a clone: the cache holds the fix and everything after it, and an agent that ran
 * `git log --all` or `git show FIX` would read the answer. Dependencies are installed before the
 * agent starts, so its first test run measures the tests, not npm.
 */
import { execSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedRepo } from './cache';
import { git, runShell, type ShellResult } from './sh';
import type { BenchTask } from './task';

export interface TaskWorkspace {
  root: string;
  install: ShellResult;
  cleanup(): void;
}

export const minutes = (task: BenchTask) => (task.timeoutMinutes ?? 10) * 60_000;

/** The environment of installs and judges: CI=1 keeps test runners from waiting on a terminal. */
export function benchEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', npm_config_audit: 'false', npm_config_fund: 'false' };
}

export async function prepareWorkspace(task: BenchTask): Promise<TaskWorkspace> {
  const root = mkdtempSync(path.join(os.tmpdir(), `pp-task-${task.name}-`));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  execSync(`git --git-dir="${cachedRepo(task)}" archive --format=tar ${task.parent} | tar -x -C "${root}"`, { stdio: 'pipe' });
  git(root, 'init', '-q', '-b', 'main');
  // What install and the agent's history write is not the task's change.
  appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'node_modules/\n.patchpilot/\ncoverage/\n.nyc_output/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', `${task.repo} at ${task.parent.slice(0, 10)}`);
  const install = await installWithout(task, root);
  return { root, install, cleanup };
}

/**
 * The install, with the task's `skipDevDeps` left out of package.json meanwhile (tools the tests do
 * not need and that cannot install from the registry, such as a dependency on a git URL); the
 * file is restored after, so the agent sees the repository's own.
 */
async function installWithout(task: BenchTask, root: string): Promise<ShellResult> {
  const pkgPath = path.join(root, 'package.json');
  const original = task.skipDevDeps?.length ? readFileSync(pkgPath, 'utf8') : null;
  if (original !== null) {
    const pkg = JSON.parse(original) as { devDependencies?: Record<string, string> };
    for (const name of task.skipDevDeps ?? []) delete pkg.devDependencies?.[name];
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
  }
  try {
    return await runShell(task.install, root, minutes(task), benchEnv());
  } finally {
    if (original !== null) writeFileSync(pkgPath, original);
  }
}
