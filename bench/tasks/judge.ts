/**
 * Judging: the fix's versions of the held-out test files go into the workspace (over whatever the
 * agent did to them), then the task's judge command runs them. `applyFix` puts the fix's other
 * changes in, which is what --check does to show the test passes with the real fix.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo } from './cache';
import { git, runShell, type ShellResult } from './sh';
import type { BenchTask } from './task';
import { benchEnv, minutes } from './workspace';

function showAt(task: BenchTask, commit: string, file: string): Buffer | null {
  try {
    return execFileSync('git', ['--git-dir', cachedRepo(task), 'show', `${commit}:${file}`], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  } catch {
    return null; // the fix deleted it
  }
}

export function addHeldOutTests(task: BenchTask, root: string): void {
  for (const file of task.heldOutTests) {
    const text = showAt(task, task.fix, file);
    const dest = path.join(root, file);
    if (text === null) rmSync(dest, { force: true });
    else {
      mkdirSync(path.dirname(dest), { recursive: true });
      writeFileSync(dest, text);
    }
  }
}

/** The fix's changes outside the held-out tests, applied with git apply (all or nothing). */
export function applyFix(task: BenchTask, root: string): void {
  const excludes = task.heldOutTests.map((f) => `:(exclude)${f}`);
  const diff = execFileSync('git', ['--git-dir', cachedRepo(task), 'diff', '--binary', task.parent, task.fix, '--', '.', ...excludes], {
    maxBuffer: 64 << 20,
  });
  const file = path.join(root, '.git', 'bench-fix.diff');
  writeFileSync(file, diff);
  git(root, 'apply', '--whitespace=nowarn', file);
}

export function judge(task: BenchTask, root: string): Promise<ShellResult> {
  return runShell(task.judge, root, minutes(task), benchEnv());
}
