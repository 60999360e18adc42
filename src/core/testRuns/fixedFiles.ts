/**
 * A package script whose runner names its own files (`tap test/*.js`, `mocha 'test/**\/*.spec.js'`,
 * `nyc tape 'test/**\/*.js'`): `npm test -- test/a.js` appends the file to that list, and the runner
 * runs every file the glob matches plus that one, the whole suite again. Known from the script's text
 * before running, so a run aimed at files calls the runner's own command instead: the same runner
 * and flags, without the fixed files, with what the script runs first (`pretest`, a build), and the
 * note says so (test/unit/testRuns/fixedFiles.test.ts).
 */
import { narrowCommand, runnerOfCommand, type TestNarrowing } from './narrowing';
import { preparationOf, stepsOf, type ScriptLink } from './testScriptChain';
import type { TestFramework } from './runners';

/** The runner's word in a script step, for runners that take files; node's runner is `node ... --test`. */
const RUNNER_WORD: Partial<Record<TestFramework, RegExp>> = {
  tap: /^tap$/,
  tape: /^tape$/,
  mocha: /^_?mocha$/,
  jest: /^jest$/,
  vitest: /^vitest$/,
  node: /^node$/,
};

/** The narrowed command that calls the runner directly, and the note that says why; undefined when the script's runner names no files. */
export function directWhenFilesFixed(
  chain: readonly ScriptLink[],
  configured: string,
  n: TestNarrowing,
): { command: string; note: string; filesReachRunner: true } | undefined {
  if (!n.files?.some((f) => f.trim())) return undefined;
  // A configured command that is no package script can fix its files itself (`npx tap test/*.js`).
  const step = runnerStep(chain.length ? chain : [{ name: '', script: configured, pre: false }]);
  if (!step) return undefined;
  const words = step.text.match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
  const at = words.findIndex((w) => RUNNER_WORD[step.runner]?.test(w));
  if (at < 0) return undefined;
  const env = words.slice(0, at).filter((w) => /^\w+=/.test(w));
  const args = words.slice(at + 1);
  const fixed = args.filter((w, i) => isFixedFile(w, args[i - 1]));
  if (!fixed.length) return undefined;
  const runnerCall = step.runner === 'node' ? ['node'] : ['npx', words[at]!];
  const base = [...env, ...runnerCall, ...args.filter((w) => !fixed.includes(w))].join(' ');
  const aimed = narrowCommand(base, step.runner, n);
  if ('error' in aimed) return undefined;
  const command = [...preparationOf(chain), aimed.command].join(' && ');
  const script = step.text === configured ? `\`${configured}\`` : `\`${configured}\` (\`${step.text}\`)`;
  const note = `the runner ran directly: ${script} lists its own files (${fixed.join(' ')}), which would add the whole suite to yours`;
  return { command, note: aimed.note ? `${note}; ${aimed.note}` : note, filesReachRunner: true };
}

/** The script step that runs the test runner: the first step of the chain, outermost script first, that names one. */
function runnerStep(chain: readonly ScriptLink[]): { text: string; runner: TestFramework } | undefined {
  for (const link of chain) {
    for (const text of stepsOf(link.script)) {
      const runner = runnerOfCommand(text);
      if (runner) return { text, runner };
    }
  }
  return undefined;
}

const BOOLEAN_FLAG = /^--(test|recursive|bail|exit|parallel|forbid-only|no-[\w-]+|\d+)$/;

/**
 * A word of the runner's own arguments that names test files: a glob, or a path to a test file or
 * folder, not a flag and not a flag's value (`--require test/setup.js`; a glob after a flag is still
 * files: `--recursive 'test/**'`).
 */
function isFixedFile(word: string, before: string | undefined): boolean {
  if (word.startsWith('-')) return false;
  const bare = word.replace(/^['"]|['"]$/g, '');
  const glob = /[*?{[]/.test(bare);
  // A flag that takes no value (`node --test test/`, `mocha --recursive test/`) leaves the word after it positional.
  const flag = before?.startsWith('-') && !before.includes('=') && !BOOLEAN_FLAG.test(before) ? before : undefined;
  // Flags whose value is a glob or a path that is not a test file: what to ignore, watch, require, report to.
  if (flag && !flag.startsWith('--no-') && /ignore|exclude|watch|require|import|config|reporter|setup|coverage|include|extension|loader/i.test(flag))
    return false;
  if (glob) return true;
  return !flag && /^(\.\/)?[\w.-]+\/|\.[cm]?[jt]sx?$/.test(bare);
}
