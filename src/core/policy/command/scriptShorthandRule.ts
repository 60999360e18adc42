/**
 * `pnpm lint`, `yarn build`, `bun run test`: pnpm and yarn run a package.json script named as the
 * first argument, so the allow rules ("pnpm run *") cannot see that `pnpm lint` is the same as
 * `pnpm run lint`. A script of the package in each directory the command runs in is allowed like
 * `npm run <script>`; the manager's own commands (install, add, dlx...) win over a script of the
 * same name, so those are never taken for one. Like every package script it runs workspace code:
 * without the sandbox, auto mode asks (exec/autoMode.ts). (Which scripts a test command ends in is
 * another question: testRuns/testScriptChain.ts.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRulePattern, type CommandRule } from './rules';
import type { Word } from './types';

/** Each manager's built-in commands, which shadow a script of the same name. */
const BUILTINS: Record<string, ReadonlySet<string>> = {
  pnpm: new Set(
    'add i install update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch patch patch-commit patch-remove audit list ls outdated why licenses run test t exec dlx create publish pack store root bin setup init deploy env config c server doctor self-update cat-file cat-index find-hash recursive multi m add-global'.split(
      ' ',
    ),
  ),
  yarn: new Set(
    'add audit autoclean bin cache check config create dedupe dlx exec explain generate-lock-entry global help import info init install licenses link list login logout node npm outdated owner pack patch patch-commit plugin policies publish rebuild remove run search set stage tag team test unlink unplug up upgrade upgrade-interactive version versions why workspace workspaces'.split(
      ' ',
    ),
  ),
};

/** An allow rule for `pnpm <script>` / `yarn <script>` when <script> is a script in every cwd's package.json. */
export function packageScriptRule(argv: readonly Word[], cwds: readonly string[]): CommandRule | undefined {
  const manager = argv[0]?.value;
  const script = argv[1];
  if (!manager || !BUILTINS[manager] || !script || script.dynamic || script.glob) return undefined;
  if (script.value.startsWith('-') || BUILTINS[manager].has(script.value)) return undefined;
  if (cwds.length === 0 || !cwds.every((cwd) => scriptsOf(cwd).has(script.value))) return undefined;
  return parseRulePattern(`${manager} ${script.value} *`, 'allow', 'default', `allow:${manager}-script`);
}

function scriptsOf(dir: string): Set<string> {
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: unknown };
    return pkg.scripts && typeof pkg.scripts === 'object' ? new Set(Object.keys(pkg.scripts)) : new Set();
  } catch {
    return new Set();
  }
}
