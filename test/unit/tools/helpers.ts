// Shared fixtures for the tool tests: a real temp workspace (a git repository when asked), and the
// Approver that answers from a script. Their ToolContext is test/support/fakes/fakeToolContext.ts.
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ScriptedApprover } from '../../support/fakes';

export function tempWorkspace(files: Record<string, string> = {}): { root: string; cleanup(): void } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'pp-tools-')));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function gitInit(root: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test');
  git('config', 'user.email', 'test@example.invalid');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial', '--allow-empty');
}

// The approver fake lives with the other ports' fakes; the tool tests name it from here as they always did.
export { ScriptedApprover };
