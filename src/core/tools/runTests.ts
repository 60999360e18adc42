import { stripVTControlCharacters } from 'node:util';
import { isTestDefinitionFile } from '../policy/command/testDefinitionFiles';
import { auditProtectedChanges } from './gate';
import {
  describeTestCommand,
  failingStep,
  failuresWorthRerun,
  directRunnerCommand,
  formatTestSummary,
  isNarrowed,
  narrowCommand,
  narrowedTestsPassed,
  narrowingIgnored,
  outputPartlyShown,
  reportOf,
  reportPassed,
  rerunVerdict,
  runnerOfCommand,
  summarizeTestOutput,
  chainStopped,
  directWhenFilesFixed,
  preparationOf,
  runnerOfChain,
  scriptChain,
  scriptOf,
  type NarrowedCommand,
  type ScriptLink,
  type TestCommandResult,
  type TestFramework,
  type TestNarrowing,
  type TestRunReport,
  verdictOf,
} from '../testRuns';
import type { TaskRunResult } from '../ports';
import { ToolError, fail, ok, type Tool, type ToolContext, type ToolResult } from './types';
import { approveUntrustedHostRun } from './untrustedHostRun';
import { approveDetectedTestCommand } from './detectedTests';

export type { TestCommandResult } from '../testRuns';

type Args = TestNarrowing;

export const runTestsTool: Tool<Args> = {
  name: 'run_tests',
  loop: {
    changesFiles: () => 'workspace',
    isVerdict: (result) => Array.isArray(result.data?.results),
    testsOutcome: (result) => (Array.isArray(result.data?.results) ? (result.ok ? 'passed' : 'failed') : undefined),
    testReport: (result) => result.data?.report as TestRunReport | undefined,
  },
  description:
    "Run the project's test commands: exit codes, durations and the failing tests with what explains them. " +
    'Without arguments the whole suite runs. To run part (a test you fixed or think flaky), pass files, a test name ' +
    "or filter (the runner's own arguments), mapped to the runner (jest/vitest: paths, -t; mocha: --grep; node --test: " +
    '--test-name-pattern; pytest: node ids, -k; go: -run; cargo: the name; tap: files, node-tap: --grep). ' +
    'A narrowed run is judged by its tests (coverage, lint of files you did not edit: left to the whole suite); its pass of a failing test counts at finish.',
  schema: {
    type: 'object',
    properties: {
      files: { type: 'array', items: { type: 'string' }, description: 'Test files (or pytest node ids), workspace-relative.' },
      name: { type: 'string', description: 'A test name or pattern.' },
      filter: { type: 'string', description: 'Arguments for the test runner itself, appended to the command.' },
    },
    additionalProperties: false,
  },
  readOnly: false,
  async run(args, ctx) {
    const narrowing = isNarrowed(args) ? args : undefined;
    // Asked with nothing configured: the project's detected command (the offer not answered yet), asked about where commands ask.
    const detected = ctx.workspace.settings.tests.commands.length === 0 && !ctx.ask.planOnly ? await approveDetectedTestCommand(ctx) : undefined;
    if (detected) {
      const result = await runConfiguredTests(ctx, narrowing, { commands: [detected.command] });
      return { ...result, output: `${detected.note}\n${result.output}` };
    }
    // One test run in the tree at a time (they share coverage folders and temp files): the baseline, started with the run, goes first;
    // the whole suite before any change is that same run.
    const baseline = await ctx.state.beforeFirstChange?.({ testRun: narrowing ? 'narrowed' : 'whole' });
    return !narrowing && baseline ? baseline : runConfiguredTests(ctx, narrowing);
  },
};

/**
 * Runs every configured test command in order (also after each applied edit, and as the run's
 * baseline before its first change), aimed at part of the suite when `narrowing` says so. A
 * failing whole-suite run reruns its failing tests once: one that passes then is flaky, not failing
 * (not the baseline: a test failing there is pre-existing either way, and the rerun would cost time).
 */
export async function runConfiguredTests(
  ctx: ToolContext,
  narrowing?: TestNarrowing,
  options: { rerun?: boolean; narrowedAs?: string; commands?: readonly string[] } = {},
): Promise<ToolResult> {
  const commands = options.commands ?? ctx.workspace.settings.tests.commands;
  if (commands.length === 0)
    return fail('no test commands are configured (setting patchpilot.tests.commands, or --test-cmd); say how you verified the change instead');
  if (ctx.ask.planOnly) throw new ToolError('plan mode: tests are not run');

  // A command that ignored narrowing earlier in this run goes whole directly: narrowing it again costs a whole run and tells nothing.
  const wholeDirectly = !!narrowing && commands.every((c) => ctx.state.narrowingIgnored?.has(c));
  const aim = wholeDirectly ? undefined : narrowing;
  const results: TestCommandResult[] = [];
  const parts: string[] = [];
  const flaky: string[] = [];
  /** What of the narrowing a runner could not take (tape has no name filter). */
  const notes: string[] = [];
  /** Every command handed the files to the runner itself (no script between that might drop them). */
  let filesReachRunner = !!aim;
  for (const configured of commands) {
    const aimed: NarrowedCommand = aim ? await aimedCommand(ctx, configured, aim) : { command: configured };
    if ('error' in aimed) return fail(aimed.error);
    if (!aimed.filesReachRunner) filesReachRunner = false;
    if (aimed.note && firstTimeSaid(ctx, aimed.note)) notes.push(aimed.note);
    const result = await runOneTestCommand(ctx, configured, aimed.command, !!aim);
    results.push(result);
    parts.push(describeTestCommand(result));
    if (aim || options.rerun === false || result.exitCode === 0) continue;
    // The rerun is narrowed too: a command that ignores narrowing would run the whole suite again.
    const rerun = ctx.state.narrowingIgnored?.has(configured)
      ? { flaky: [], text: 'not rerun: this test command ignores narrowing arguments, so a rerun would be the whole suite again' }
      : await rerunFailures(ctx, configured, result);
    if (rerun) {
      flaky.push(...rerun.flaky);
      parts.push(rerun.text);
    }
  }
  // A runner that ignores the narrowing (a glob before the file argument, a flag it lacks) runs the
  // whole suite: said as such, counted as a whole run, never labelled "part of the suite", and remembered.
  const counted = testsCounted(results);
  const ranToEnd = results.every((r) => r.exitCode === 0);
  const countedWhole = !!aim && narrowingIgnored(ctx.state.wholeSuiteTests, { tests: counted, passed: ranToEnd });
  // Files handed to the runner itself that count the whole suite hold it (qs: three files, every test); through a script, the runner ignored them.
  const holdsWhole = countedWhole && filesReachRunner;
  const notNarrowed = countedWhole && !filesReachRunner;
  if (notNarrowed) for (const c of commands) (ctx.state.narrowingIgnored ??= new Set()).add(c);
  if (!aim || countedWhole) {
    // The time the run before finish will cost is the configured command's: a direct runner call skips its coverage or build.
    if (!holdsWhole) ctx.state.wholeSuiteMs = results.reduce((ms, r) => ms + r.durationMs, 0);
    // Only a whole run that ran to its end counts the whole suite (a failing chain stops at its first failing link).
    if (counted !== undefined && ranToEnd) ctx.state.wholeSuiteTests = counted;
  }
  const report = reportOf(results, {
    narrowed: !!aim && !countedWhole,
    aimedAt: aim ? [...(aim.files ?? []), aim.name ?? ''].filter(Boolean) : [],
    flaky,
    changedFiles: ctx.state.changedFiles,
    root: ctx.root,
  });
  // A narrowed run is judged by its tests: a coverage threshold or a lint of untouched files is the whole suite's to judge (wholeTreeSteps.ts).
  const passed = reportPassed(report) || narrowedTestsPassed(report);
  const runner = notNarrowed && aim ? directRunnerCommand(await runnerOf(ctx, commands[0]!), aim) : undefined;
  // What the script runs before its runner (a pretest build) must run first, or the runner tests the code before the edit.
  const direct = runner && [...preparationOf(await scriptChainOf(ctx, commands[0]!)), runner].join(' && ');
  const scope = scopeNote(ctx, { aim, notNarrowed, holdsWhole, wholeDirectly, counted, notes, narrowedAs: options.narrowedAs, direct });
  const text = `${headline(report, results, ctx.state.testBaseline?.())}${scope}\n\n${parts.join('\n\n')}`;
  return passed ? ok(text, { results, report }) : fail(text, { results, report });
}

/** What part of the suite ran, after the headline: narrowed, not narrowed though asked, or whole directly (said once a run). */
function scopeNote(
  ctx: ToolContext,
  s: {
    aim?: TestNarrowing;
    notNarrowed: boolean;
    holdsWhole: boolean;
    wholeDirectly: boolean;
    counted?: number;
    notes: string[];
    narrowedAs?: string;
    direct?: string;
  },
): string {
  if (s.holdsWhole) {
    const files = s.aim?.files?.length ? s.aim.files.join(', ') : 'the narrowing';
    // Why the runner ran directly says nothing here: the run was the whole suite either way.
    return ` (${files} hold the whole suite: ${s.counted} tests, as many as a whole run; counted as one)`;
  }
  if (s.notNarrowed) {
    // Who narrowed: PatchPilot itself after an edit (narrowedAs), or the model's run_tests arguments.
    const who = s.narrowedAs ? 'the run after your edit was narrowed to the related tests' : 'your run_tests call was narrowed';
    const how = s.direct
      ? `call the runner itself with run_command, e.g. \`${s.direct}\``
      : "call the runner itself with run_command and the runner's own arguments";
    return (
      ` (${who}, but the test command ran ${s.counted} tests, as many as the whole suite: it did not take the narrowing; ` +
      `the next runs of this command in this run go whole directly; to run part of the suite, ${how})`
    );
  }
  if (s.aim) return ` (${[s.narrowedAs ?? 'narrowed run: part of the suite', ...s.notes].join('; ')})`;
  const note = ' (the whole suite, directly: this test command ignored narrowing arguments earlier in this run; said once)';
  return s.wholeDirectly && firstTimeSaid(ctx, note) ? note : '';
}

/** Notes said once a run (the same explanation on every run after each edit is noise), kept in the run's state. */
function firstTimeSaid(ctx: ToolContext, note: string): boolean {
  const said = (ctx.state.notesSaid ??= new Set<string>());
  if (said.has(note)) return false;
  said.add(note);
  return true;
}

/** The verdict against the baseline; a command that failed in a step that is not its tests (lint before the runner) says which. */
export function headline(report: TestRunReport, results: readonly TestCommandResult[], baseline: TestRunReport | undefined): string {
  const verdict = verdictOf(report, baseline);
  const steps = results.flatMap((r) => (r.exitCode !== 0 ? [failingStep(r.output, r.summary)] : [])).filter((s): s is string => !!s);
  if (!steps.length || report.failing.length || !verdict.startsWith('tests FAILED')) return verdict;
  return `tests FAILED at a step that is not the test runner: ${steps.join('; ')}`;
}

/**
 * The runner behind a configured command: the one its last output showed, the one it names, or
 * for a package script (`npm test`, `npm run tests-only`) the one the script names in package.json,
 * following scripts that run other scripts (`"test": "npm run tests-only"`, `"tests-only": "nyc tape 'test/**\/*.js'"`).
 */
export async function runnerOf(ctx: ToolContext, configured: string): Promise<TestFramework | undefined> {
  return ctx.state.testRunners?.get(configured) ?? runnerOfCommand(configured) ?? runnerOfChain(await scriptChainOf(ctx, configured));
}

/** The package scripts a configured command runs, outermost first (testRuns/testScriptChain.ts); empty when package.json cannot be read. */
async function scriptChainOf(ctx: ToolContext, configured: string): Promise<ScriptLink[]> {
  if (!scriptOf(configured)) return [];
  try {
    const scripts = (JSON.parse(new TextDecoder().decode(await ctx.fs.readFile('package.json'))) as { scripts?: Record<string, unknown> }).scripts;
    return scriptChain(scripts ?? {}, configured);
  } catch {
    return [];
  }
}

/**
 * The configured command aimed at the narrowing: the runner's own command when the script fixes its
 * files (`tap test/*.js`: an appended file would run with the whole list), else the command with the
 * narrowing in the runner's words.
 */
async function aimedCommand(ctx: ToolContext, configured: string, aim: TestNarrowing, runner?: TestFramework): Promise<NarrowedCommand> {
  const direct = directWhenFilesFixed(await scriptChainOf(ctx, configured), configured, aim);
  return direct ?? narrowCommand(configured, runner ?? (await runnerOf(ctx, configured)), aim);
}

/** One command's run; its test-finished event says whether it ran the whole suite (not aimed, or aimed and the runner ignored it). */
async function runOneTestCommand(ctx: ToolContext, configured: string, command: string, aimed: boolean): Promise<TestCommandResult> {
  const run = await runGuardedTestCommand(ctx, command, () => ctx.emit?.({ type: 'test-started', command }), configured);
  const summary = summarizeTestOutput(run.output);
  if (summary.framework) (ctx.state.testRunners ??= new Map()).set(configured, summary.framework);
  const whole = !aimed || narrowingIgnored(ctx.state.wholeSuiteTests, { tests: testsCounted([{ summary }]), passed: run.exitCode === 0 });
  const finished = { command, exitCode: run.exitCode, durationMs: run.durationMs, summary: formatTestSummary(summary), output: run.output, whole };
  ctx.emit?.({ type: 'test-finished', ...finished });
  const result: TestCommandResult = { command, exitCode: run.exitCode, durationMs: run.durationMs, timedOut: run.timedOut, output: run.output, summary };
  // A chained script (`npm run lint && npm run unit`) that stopped early did not run the steps after the failing one.
  const stopped = run.exitCode !== 0 && !run.timedOut && command === configured ? chainStopped(await scriptChainOf(ctx, configured), run.output) : undefined;
  if (stopped) result.chainStopped = stopped;
  // The result shows an excerpt of the output (or none of it): the whole of it, colours stripped, kept where read_file reads it.
  const keptAt = outputPartlyShown(result) ? ctx.state.keepOutput?.(stripVTControlCharacters(run.output), 'run_tests') : undefined;
  return keptAt ? { ...result, keptAt } : result;
}

/**
 * The failing tests of a whole-suite run that the baseline does not explain, once more on their own
 * (by their files, or pytest's node ids): those that pass now are flaky (a load-dependent timeout),
 * those that fail again are failures (testRuns/rerun.ts). Undefined when there is nothing to rerun
 * or the failures name no file to rerun.
 */
async function rerunFailures(ctx: ToolContext, configured: string, first: TestCommandResult): Promise<{ flaky: string[]; text: string } | undefined> {
  const { framework } = first.summary;
  if (first.summary.failures.length === 0) return undefined;
  const failures = failuresWorthRerun(first, ctx.state.testBaseline?.(), ctx.state.changedFiles);
  if (failures.length === 0) return { flaky: [], text: 'not rerun: every failure already failed before the run' };
  const files = framework === 'pytest' ? failures.map((f) => f.name) : failures.map((f) => f.file);
  if (files.some((f) => !f)) return undefined;
  const aimed = await aimedCommand(ctx, configured, { files: [...new Set(files as string[])] }, framework);
  if ('error' in aimed) return undefined;
  const again = await runOneTestCommand(ctx, configured, aimed.command, true);
  const verdict = rerunVerdict(failures, again, { changedFiles: ctx.state.changedFiles, root: ctx.root });
  // A rerun that failed without naming the rerun tests or their files tells nothing apart: every failure stands.
  if (!verdict) return { flaky: [], text: `rerun of the failing tests: ${describeTestCommand(again)}` };
  const { flaky, failedAgain } = verdict;
  const words = [flaky.length ? `passed on rerun (flaky): ${flaky.join(', ')}` : '', failedAgain.length ? `failed again: ${failedAgain.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  return { flaky, text: `rerun of the failing tests, once, to tell a flake from a failure ($ ${aimed.command}): ${words}` };
}

/**
 * One test-like command (a test command, a check command) under the test commands' rules (`configured`:
 * the configured command a narrowed one comes from): asks when
 * its definition changed or when it would run unreviewed code unsandboxed, runs in the sandbox when
 * the host has one, and audits protected paths afterwards.
 */
export async function runGuardedTestCommand(ctx: ToolContext, command: string, onStart?: () => void, configured = command): Promise<TaskRunResult> {
  // What runs is asked about in its exact bytes; a narrowed command's definition is the configured command's.
  const askedToRunUnsandboxed = await approveUntrustedHostRun(ctx, command);
  await approveIfRedefined(ctx, configured);
  if (!askedToRunUnsandboxed) await approveIfUnsandboxed(ctx, configured);
  onStart?.();
  // The runner chooses the sandbox or the host's task terminal (tools/testCommandRunner.ts).
  const run = await ctx.run.tests.run({ command, cwd: ctx.root, timeoutMs: ctx.workspace.settings.tests.timeoutSeconds * 1000, signal: ctx.signal });
  auditProtectedChanges(ctx, run);
  ctx.signal.throwIfAborted();
  return run;
}

/**
 * (attacks.commands) The policy's guard compares the test definitions with their state at run start (it sees edits
 * made by commands too); without it, the files this run wrote are checked by name. A file the
 * command names itself (`node scripts/test.mjs`) counts in both cases.
 */
async function approveIfRedefined(ctx: ToolContext, command: string): Promise<void> {
  const guard = ctx.run.tests;
  const named = [...ctx.state.changedFiles].filter((f) => command.includes(f) || (!guard.redefined && isTestDefinitionFile(f)));
  const guarded = guard.redefined?.(command);
  if (named.length === 0 && !guarded) return;
  const reason = [guarded?.reason, named.length ? `this run changed ${named.join(', ')}, which can change what "${command}" does` : '']
    .filter(Boolean)
    .join('; ');
  await ctx.ask({ kind: 'tests', title: command, reason }, { verdict: 'ask', rule: 'ask:test-definition-changed', reason });
}

/**
 * The host said commands are not sandboxed here: auto mode asks before `node x.js` (requireApprovalWhenUnsandboxed),
 * and for the same reason a test command asks once this run changed files no human approved one by one
 * (auto, auto-edit): `npm test` runs whatever the agent put in the modules the tests load. Any write
 * by a command counts as a change (`echo ... > test.js`): once run_command ran, the workspace is
 * treated as changed. A test command itself does not set that: it only runs agent code when this
 * check already asked.
 */
async function approveIfUnsandboxed(ctx: ToolContext, command: string): Promise<void> {
  if (ctx.run.tests.sandboxed !== false || !ctx.ask.unreviewedEdits) return;
  if (ctx.state.changedFiles.size === 0 && !ctx.state.commandsRan) return;
  const files = [...ctx.state.changedFiles];
  const listed = files.length > 5 ? `${files.slice(0, 5).join(', ')} and ${files.length - 5} more` : files.join(', ');
  const what = [
    files.length ? `code this run changed (${listed})` : '',
    ctx.state.commandsRan ? 'whatever the shell commands of this run wrote (they can change any file, tests included)' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const reason = `Commands are not sandboxed here, and "${command}" runs ${what}, which the agent wrote without review.`;
  await ctx.ask({ kind: 'tests', title: command, reason }, { verdict: 'ask', rule: 'ask:unsandboxed-code', reason });
}

/** Tests the runners counted (passed, failed, skipped) over every command; undefined when a runner's output gave no count. */
function testsCounted(results: readonly Pick<TestCommandResult, 'summary'>[]): number | undefined {
  let total = 0;
  for (const { summary } of results) {
    const n = (summary.passed ?? 0) + (summary.failed ?? 0) + (summary.skipped ?? 0);
    if (n === 0) return undefined;
    total += n;
  }
  return total;
}
