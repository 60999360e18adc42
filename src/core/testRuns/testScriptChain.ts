/**
 * The package scripts behind a test command (`npm test` → test → tests-only), read from
 * package.json's `scripts`: which runner they end in, what runs before it, and (chainStop.ts,
 * fixedFiles.ts) what a chained script ran and whether the runner's own arguments fix its files.
 * (Whether `pnpm lint` may run as a script is the command policy's: policy/command/scriptShorthandRule.ts.)
 */
import { runnerOfCommand } from './narrowing';

/** One script of the chain: its name, its text, and whether npm runs `pre<name>` first. */
export interface ScriptLink {
  name: string;
  script: string;
  pre: boolean;
}

/**
 * The package scripts a configured command runs, outermost first (`npm test` → test → tests-only),
 * following a script that ends by running another, at most four deep. Empty when it runs no script.
 */
export function scriptChain(scripts: Readonly<Record<string, unknown>>, configured: string): ScriptLink[] {
  const chain: ScriptLink[] = [];
  let command = configured;
  for (let depth = 0; depth < 4; depth++) {
    const name = scriptOf(command);
    const script = name ? scripts[name] : undefined;
    if (!name || typeof script !== 'string') break;
    chain.push({ name, script, pre: typeof scripts[`pre${name}`] === 'string' });
    command = script;
  }
  return chain;
}

/** The package script a command runs (`npm test` → test, `npm run --silent tests-only` → tests-only), or undefined. */
export function scriptOf(command: string): string | undefined {
  const m = /(?:^|&&|;)\s*(?:npm|pnpm|yarn|bun)\s+(?:test|run(?:-script)?\s+(?:--?[\w-]+\s+)*([\w:.-]+))\s*$/.exec(command.trim());
  return m ? (m[1] ?? 'test') : undefined;
}

/** The steps of a script joined by `&&` or `;`. */
export function stepsOf(script: string): string[] {
  return script.split(/\s*(?:&&|;)\s*/).filter(Boolean);
}

/** The runner the chain names: the first script whose steps name one. */
export function runnerOfChain(chain: readonly ScriptLink[]): ReturnType<typeof runnerOfCommand> {
  for (const link of chain) {
    const runner = runnerOfCommand(link.script);
    if (runner) return runner;
  }
  return undefined;
}

/**
 * What a package script runs before its test runner, as commands to run first: `pre<name>` scripts
 * (npm runs them; a build that tests load, such as yargs-parser's `build/index.cjs`) and the steps
 * before the runner in the script itself (`npm run build && mocha`). Empty when nothing comes first.
 */
export function preparationOf(chain: readonly ScriptLink[]): string[] {
  const steps: string[] = [];
  for (const link of chain) {
    if (link.pre) steps.push(`npm run pre${link.name}`);
    const parts = stepsOf(link.script);
    const at = parts.findIndex((part) => runnerOfCommand(part) !== undefined || scriptOf(part) !== undefined);
    if (at < 0) break;
    steps.push(...parts.slice(0, at));
    if (runnerOfCommand(parts[at]!)) break;
  }
  return steps;
}
