import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCommandPolicy, type CommandPolicyOptions, type LoadedCommandPolicy } from '../../../../src/core/policy/command';
import type { PolicyDecision } from '../../../../src/core/policy/types';

/** A real workspace and home on disk (symlinks and realpaths matter), and a policy over them. */
export interface PolicyFixture {
  ws: string;
  home: string;
  policy: LoadedCommandPolicy;
  check(command: string, cwd?: string): PolicyDecision;
  make(options: Partial<CommandPolicyOptions>): Promise<(command: string) => PolicyDecision>;
  dispose(): void;
}

export async function createFixture(options: Partial<CommandPolicyOptions> = {}): Promise<PolicyFixture> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-cmdpolicy-')));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(ws, '.env'), 'KEY=secret\n');
  writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {}\n');
  symlinkSync(home, path.join(ws, 'link'));
  // Stands in for the path half's .patchpilotignore predicate: `.env*` is ignored.
  const isIgnoredPath = (abs: string) => path.basename(abs).startsWith('.env');
  const make = async (o: Partial<CommandPolicyOptions>) => {
    const p = await createCommandPolicy({ trusted: true, isIgnoredPath, ...o });
    return (command: string) => p.check({ command, workspaceRoot: ws, cwd: ws, homeDir: home });
  };
  const policy = await createCommandPolicy({ trusted: true, isIgnoredPath, ...options });
  return {
    ws,
    home,
    policy,
    check: (command, cwd = ws) => policy.check({ command, workspaceRoot: ws, cwd, homeDir: home }),
    make,
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
}
