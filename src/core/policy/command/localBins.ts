/**
 * `npx tap`, `pnpm exec vitest`: a runner the project installed, in `node_modules/.bin` of the
 * directory the command runs in or of one above it inside the workspace. Only such a one is allowed:
 * without a local bin npx would download a package (and run it), and `pnpm exec` would run any
 * program on PATH, past the deny rules that judge the program's own name. Like a package script it
 * runs workspace code: without the sandbox, auto mode asks (exec/autoMode.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseRulePattern, type CommandRule } from './rules';
import type { Word } from './types';

/** An allow rule for `npx <bin> ...` / `pnpm exec <bin> ...` when <bin> is installed locally for every cwd. */
export function localBinRule(argv: readonly Word[], cwds: readonly string[], workspaceRoot: string): CommandRule | undefined {
  const program = argv[0]?.value;
  const rest = program === 'npx' ? argv.slice(1) : program === 'pnpm' && argv[1]?.value === 'exec' ? argv.slice(2) : undefined;
  if (!rest) return undefined;
  // npx's own options come first; those that take a value (-p, -c) ask on their own (flags.ts).
  const bin = rest.find((w) => !w.value.startsWith('-'));
  if (!bin || bin.dynamic || bin.glob || !/^[\w@.+-][\w.+-]*$/.test(bin.value)) return undefined;
  if (cwds.length === 0 || !cwds.every((cwd) => installedBelow(bin.value, cwd, workspaceRoot))) return undefined;
  const head = program === 'npx' ? 'npx' : 'pnpm exec';
  return parseRulePattern(`${head} ${bin.value} *`, 'allow', 'default', `allow:${program}-local-bin`);
}

/** node_modules/.bin/<bin> in `dir` or a folder above it, not above the workspace root. */
function installedBelow(bin: string, dir: string, workspaceRoot: string): boolean {
  const root = path.resolve(workspaceRoot);
  for (let d = path.resolve(dir); d === root || d.startsWith(root + path.sep); d = path.dirname(d)) {
    if (existsSync(path.join(d, 'node_modules', '.bin', bin))) return true;
    if (d === root) break;
  }
  return false;
}
