/**
 * A run_command that is the project's test command (`npm test -- test/a.js` for a configured `npm
 * test`) or its runner with the model's own arguments (`npx jest foo`, `python -m pytest
 * tests/test_x.py::test_y` where the configured command runs jest or pytest) is a test run: its
 * result is summarised like run_tests' (failures first, the runner's counts, judged against the
 * baseline) and recorded for the finish gate, a narrowed pass counting as the model's own passing
 * run of what it aimed at. The summaries and the report are run_tests' own (testRuns/); only the
 * recognition of the command is here.
 *
 * Recognised only from the workspace root (where test commands run) and only for a command of plain
 * words (quotes allowed) as the command policy parsed it (CommandDecision.argv): a pipeline, a list
 * or a redirection is an ordinary command.
 */
import { stripVTControlCharacters } from 'node:util';
import type { TaskRunResult } from '../ports';
import {
  describeTestCommand,
  narrowedTestsPassed,
  outputPartlyShown,
  reportOf,
  reportPassed,
  summarizeTestOutput,
  type TestCommandResult,
  type TestFramework,
} from '../testRuns';
import { headline, runnerOf } from './runTests';
import { fail, ok, type ToolContext, type ToolResult } from './types';

export interface CommandTestRun {
  /** The configured (or detected) test command it runs. */
  configured: string;
  /** It runs less than that command (or other arguments): a pass covers what it aimed at, not the suite. */
  narrowed: boolean;
  /** The test files and names it was aimed at (the finish gate counts its pass for failures they name). */
  aimedAt: string[];
}

/** How each runner is called directly: its program words (after `npx`, `pnpm exec`, `python -m`). */
const RUNNER_WORDS: Partial<Record<TestFramework, string[][]>> = {
  jest: [['jest']],
  vitest: [['vitest']],
  mocha: [['mocha'], ['_mocha']],
  pytest: [['pytest'], ['py.test']],
  unittest: [['unittest']],
  go: [['go', 'test']],
  cargo: [
    ['cargo', 'test'],
    ['cargo', 'nextest', 'run'],
  ],
  tap: [['tap']],
  tape: [['tape']],
  prove: [['prove']],
  node: [['node', '--test']],
};

/** Options whose value names the tests a run is aimed at. */
const NAME_OPTIONS = new Set(['-t', '--testNamePattern', '-k', '--grep', '-g', '-run', '--test-name-pattern', '--match']);

/** A command's words as the command policy parses it (CommandDecision.argv): undefined unless one simple command of plain words. */
export type WordsOf = (command: string) => readonly string[] | undefined;

/** The test run a command (its words, from the policy's check) is, or undefined for an ordinary command. */
export async function commandTestRun(
  ctx: ToolContext,
  words: readonly string[] | undefined,
  cwd: string,
  wordsOf: WordsOf,
): Promise<CommandTestRun | undefined> {
  if (cwd !== '' && cwd !== '.') return undefined;
  if (!words?.length) return undefined;
  const configured = ctx.workspace.settings.tests.commands.length
    ? ctx.workspace.settings.tests.commands
    : [ctx.run.detectedTests?.()?.command].filter((c) => !!c);
  for (const c of configured as string[]) {
    const own = wordsOf(c);
    if (own?.length && own.every((w, i) => words[i] === w)) {
      const extra = words.slice(own.length);
      return { configured: c, narrowed: extra.length > 0, aimedAt: await aimedAt(ctx, extra) };
    }
    const runner = await runnerOf(ctx, c);
    const at = runner ? afterRunner(words, runner) : undefined;
    if (at !== undefined) return { configured: c, narrowed: true, aimedAt: await aimedAt(ctx, words.slice(at)) };
  }
  return undefined;
}

/** Runs the recognised command like run_command would, and answers like run_tests. */
export async function runCommandAsTests(
  ctx: ToolContext,
  command: string,
  run: CommandTestRun,
  exec: () => Promise<TaskRunResult>,
  feedback?: string,
): Promise<ToolResult> {
  const r = await exec();
  ctx.signal.throwIfAborted();
  const result: TestCommandResult = {
    command,
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    timedOut: r.timedOut,
    output: r.output,
    summary: summarizeTestOutput(r.output),
  };
  return answer(ctx, run, result, feedback);
}

function answer(ctx: ToolContext, run: CommandTestRun, result: TestCommandResult, feedback?: string): ToolResult {
  const keptAt = outputPartlyShown(result) ? ctx.state.keepOutput?.(stripVTControlCharacters(result.output), 'run_command') : undefined;
  const shown = keptAt ? { ...result, keptAt } : result;
  const report = reportOf([shown], { narrowed: run.narrowed, aimedAt: run.aimedAt, changedFiles: ctx.state.changedFiles, root: ctx.root });
  const scope = run.narrowed
    ? ` (your command runs part of the test command \`${run.configured}\`${run.aimedAt.length ? `, aimed at ${run.aimedAt.join(', ')}` : ''}: summarised like run_tests)`
    : ` (your command is the test command: the whole suite, summarised like run_tests)`;
  const text = [
    `${headline(report, [shown], ctx.state.testBaseline?.())}${scope}`,
    '',
    describeTestCommand(shown),
    feedback ? `The user said: ${feedback}` : '',
  ]
    .filter((line, i) => i < 2 || line)
    .join('\n');
  const data = { exitCode: result.exitCode, results: [shown], report };
  return reportPassed(report) || narrowedTestsPassed(report) ? ok(text, data) : fail(text, data);
}

/** The index after the runner's program words (behind `npx`, `pnpm exec`, `yarn`, `python -m`, `node_modules/.bin/`), or undefined. */
function afterRunner(words: readonly string[], runner: TestFramework): number | undefined {
  let i = 0;
  if (['npx', 'pnpx', 'bunx'].includes(words[0]!)) i = 1;
  else if (['pnpm', 'yarn', 'bun'].includes(words[0]!)) i = words[1] === 'exec' ? 2 : 1;
  else if (/^python[0-9.]*$/.test(words[0]!) && words[1] === '-m') i = 2;
  while (i > 0 && words[i]?.startsWith('-')) i++;
  const at = words.slice(i).map((w, j) => (j === 0 ? w.replace(/^(\.\/)?node_modules\/\.bin\//, '') : w));
  for (const program of RUNNER_WORDS[runner] ?? []) {
    if (program.every((w, j) => at[j] === w)) return i + program.length;
  }
  return undefined;
}

/** The test files (existing paths, pytest node ids by their file) and names among a run's arguments. */
async function aimedAt(ctx: ToolContext, args: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [flag, attached] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (NAME_OPTIONS.has(flag)) {
      const name = attached ?? args[++i];
      if (name) out.push(name);
      continue;
    }
    if (a.startsWith('-')) continue;
    const file = a.split('::')[0]!.replace(/^\.\//, '');
    const st = await ctx.fs.stat(file).catch(() => undefined);
    if (st?.exists) out.push(a.replace(/^\.\//, ''));
  }
  return out;
}
