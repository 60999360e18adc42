import { after } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

/** What the real `git diff` writes for old -> new of one file (`f.txt`), with `context` lines of context. */

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

export function gitDiff(oldText: string, newText: string, context = 3, name = 'f.txt'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-gitdiff-'));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', ...args], { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  writeFileSync(path.join(dir, name), oldText);
  git('add', name);
  writeFileSync(path.join(dir, name), newText);
  return git('diff', `-U${context}`, '--no-color', '--', name);
}
