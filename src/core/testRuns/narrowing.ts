/**
 * A test command aimed at part of the suite: files, a test name, or the runner's own arguments,
 * each runner in its own words (jest and vitest: paths and -t; mocha: --grep; node --test:
 * --test-name-pattern; pytest: paths or node ids and -k; go: -run; cargo: the name; node-tap: files
 * and --grep; tape and prove: files only, they have no name filter and none is invented).
 * The runner is the one the command's last output showed, else the one the command names. Every
 * argument is quoted: what the model passes is never shell syntax.
 */
import type { TestFramework } from './runners';

export interface TestNarrowing {
  /** Test files (or pytest node ids), workspace-relative. */
  files?: string[];
  /** A test name or pattern, as the runner filters by name. */
  name?: string;
  /** Arguments for the runner itself, appended as they are (each word quoted). */
  filter?: string;
}

/** The command aimed at part of the suite, and what of the narrowing its runner could not take (said to the model). */
export type NarrowedCommand =
  /**
   * `filesReachRunner`: the command hands the files to the runner itself (PatchPilot called the runner
   * directly), so a run of it that counts the whole suite means the files hold it, not that the
   * narrowing was ignored.
   */
  { command: string; note?: string; filesReachRunner?: true } | { error: string };

/** Runners a name narrows with, as the flag that takes it. */
const NAME_FLAG: Partial<Record<TestFramework, (name: string) => string[]>> = {
  jest: (n) => ['-t', n],
  vitest: (n) => ['-t', n],
  mocha: (n) => ['--grep', n],
  node: (n) => [`--test-name-pattern=${n}`],
  pytest: (n) => ['-k', n],
  tap: (n) => [`--grep=${n}`],
  go: (n) => ['-run', n],
  cargo: (n) => [n],
  unittest: (n) => ['-k', n],
};

export function isNarrowed(n: TestNarrowing | undefined): n is TestNarrowing {
  return !!n && (!!n.files?.length || !!n.name?.trim() || !!n.filter?.trim());
}

/** The runner a command names (`npx jest`, `python -m pytest`, `node --test`), or undefined (`npm test`, `make test`). */
export function runnerOfCommand(command: string): TestFramework | undefined {
  const table: [RegExp, TestFramework][] = [
    [/\bvitest\b/, 'vitest'],
    [/\bjest\b/, 'jest'],
    [/\bmocha\b/, 'mocha'],
    [/\bnode\b.*\s--test\b/, 'node'],
    [/\bpytest\b|\btox\b|\bnox\b/, 'pytest'],
    [/\bunittest\b/, 'unittest'],
    [/^\s*go test\b/, 'go'],
    [/^\s*cargo (nextest run|test)\b/, 'cargo'],
    [/\btape\b/, 'tape'],
    [/^\s*prove\b/, 'prove'],
    [/\btap\b/, 'tap'],
  ];
  return table.find(([re]) => re.test(command))?.[1];
}

export function narrowCommand(command: string, framework: TestFramework | undefined, n: TestNarrowing): NarrowedCommand {
  const runner = framework ?? runnerOfCommand(command);
  if (!runner || (/^\s*(make|just|task|gradle|\.\/gradlew|mvn|\.\/mvnw|dotnet)\b/.test(command) && !framework))
    return {
      error: `"${command}" cannot be narrowed: its test runner is not known yet (run the whole suite once, or use run_command with the runner's own arguments)`,
    };
  const files = (n.files ?? []).filter((f) => f.trim());
  if (files.length && runner === 'cargo') return { error: 'cargo test narrows by test name, not by file: pass name' };
  const flags: string[] = [];
  let note: string | undefined;
  if (n.name?.trim()) {
    const flag = NAME_FLAG[runner];
    // A runner without a name filter gets no invented flag: the files alone narrow it, and the model is told.
    if (!flag && !files.length) return { error: `${runner} has no test-name filter: pass the test's files (or filter, the runner's own arguments)` };
    if (flag) flags.push(...flag(n.name.trim()));
    else note = `${runner} has no test-name filter: ran the files only, every test in them`;
  }
  if (n.filter?.trim()) flags.push(...n.filter.trim().split(/\s+/));
  const paths = runner === 'go' ? goPackages(files) : files;
  const base = runner === 'go' && files.length ? command.replace(/\s\.\/\.\.\.(?=\s|$)/, '') : command;
  const narrowed = placeArguments(base.trim(), runner, flags.map(quote), paths.map(quote));
  return note ? { command: narrowed, note } : { command: narrowed };
}

/**
 * The runner's flags and the files, where the runner reads them. Most runners read flags anywhere
 * (files first, as a user types them); `node --test` reads every word after its first file as a
 * file (`node --test a.test.js --test-name-pattern=x`: "Could not find '--test-name-pattern=x'"),
 * so its flags go right after `--test`, before any file the command already names.
 */
function placeArguments(command: string, runner: TestFramework, flags: string[], files: string[]): string {
  const direct = runner === 'node' ? /^(.*?\bnode\b(?:\s+\S+)*?\s--test)(?=\s|$)(.*)$/s.exec(command) : null;
  if (direct) return [direct[1], ...flags, direct[2]!.trim(), ...files].filter(Boolean).join(' ');
  // npm passes arguments to the script after `--`; pnpm, yarn and bun pass them as they are.
  const separator = /^\s*npm (run )?test\b|^\s*npm run \S+/.test(command) && !/\s--(\s|$)/.test(command) ? ['--'] : [];
  // A script around node --test (`npm test`) gets its arguments after its own: the flags first, before the files.
  const args = runner === 'node' ? [...flags, ...files] : [...files, ...flags];
  return [command, ...(args.length ? separator : []), ...args].join(' ');
}

/** go test takes packages: the folders of the files. */
function goPackages(files: readonly string[]): string[] {
  return [...new Set(files.map((f) => f.replace(/^\.\//, '').replace(/\/?[^/]*\.go$/, '')).map((dir) => (dir ? `./${dir}` : '.')))];
}

/** One shell word, single-quoted unless it is plainly safe. */
export function quote(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A test run's count, for telling whether a narrowed run narrowed: how many tests its runners counted, and whether it ran to its end. */
export interface CountedRun {
  /** Tests counted over every command (passed, failed, skipped); undefined when an output gave no count. */
  tests?: number;
  /** Every command exited 0: nothing stopped it early. */
  passed: boolean;
}

/**
 * Whether a narrowed run ignored its narrowing (a glob before the file argument, a flag the runner
 * lacks): it counted at least as many tests as the last whole-suite run that ran to its end. Said
 * only when both counts are known and complete: a failing run may have stopped early (a chained
 * `TZ=a jest x && TZ=b jest x && jest` stops at its first failing link, before the narrowed one),
 * so its count says nothing about what the narrowing did. When in doubt, it was not ignored.
 */
export function narrowingIgnored(wholeSuiteTests: number | undefined, narrowed: CountedRun): boolean {
  if (wholeSuiteTests === undefined || wholeSuiteTests <= 0 || narrowed.tests === undefined || !narrowed.passed) return false;
  return narrowed.tests >= wholeSuiteTests;
}

/** How a runner is called directly, without the project's script around it (what the model can run with run_command). */
const DIRECT_CALL: Partial<Record<TestFramework, string>> = {
  jest: 'npx jest',
  vitest: 'npx vitest run',
  mocha: 'npx mocha',
  node: 'node --test',
  tap: 'npx tap',
  tape: 'npx tape',
  pytest: 'python -m pytest',
  unittest: 'python -m unittest',
  go: 'go test',
  cargo: 'cargo test',
  prove: 'prove',
};

/**
 * The runner itself, aimed at the narrowing (`npx tape test/stringify.js` for a script running
 * `nyc tape 'test/**\/*.js'`): what to run with run_command when the configured command cannot be
 * narrowed. Undefined when the runner is not known or cannot take the narrowing.
 */
export function directRunnerCommand(runner: TestFramework | undefined, n: TestNarrowing): string | undefined {
  const base = runner && DIRECT_CALL[runner];
  if (!base) return undefined;
  const aimed = narrowCommand(base, runner, n);
  return 'command' in aimed ? aimed.command : undefined;
}
