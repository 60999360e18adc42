import { commandTestRun, runCommandAsTests } from './commandTestRun';
import { auditProtectedChanges } from './gate';
import { resolveWorkspacePath } from './paths';
import type { TaskRunResult } from '../ports';
import type { TestRunReport } from '../testRuns';
import { ToolError, fail, ok, type Tool, type ToolContext, type ToolResult } from './types';

export const COMMAND_TIMEOUT_MS = 120_000;

interface Args {
  command: string;
  cwd?: string;
}

export const runCommandTool: Tool<Args> = {
  name: 'run_command',
  description:
    'Run a shell command in the workspace (cwd: a workspace-relative directory). The policy decides: allowed commands run, ' +
    'others need approval, dangerous ones are denied. A command is stopped after 120 s (a test run: the test time limit); ' +
    'when its output is long the middle is left out and the output is kept in a file you can read_file. Use run_tests for the test suite; ' +
    "the project's test command or its runner with your own arguments (`npm test -- test/a.js`, `npx jest -t name`) is summarised like run_tests and counts as a test run.",
  schema: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1 },
      cwd: { type: 'string' },
    },
    required: ['command'],
    additionalProperties: false,
  },
  // A command can write anything: the checkpoint covers the whole workspace. The project's test
  // command run through it is a test run (commandTestRun.ts): its result is a verdict, recorded like run_tests'.
  loop: {
    changesFiles: () => 'workspace',
    hookName: 'Bash',
    isVerdict: (result) => Array.isArray(result.data?.results),
    testsOutcome: (result) => (Array.isArray(result.data?.results) ? (result.ok ? 'passed' : 'failed') : undefined),
    testReport: (result) => result.data?.report as TestRunReport | undefined,
  },
  readOnly: false,
  async run(args, ctx) {
    if (!ctx.ask.command || !ctx.run.exec) throw new ToolError('running commands is not available in this host');
    const dir = await resolveWorkspacePath(ctx, args.cwd ?? '.', 'list');
    const st = await ctx.fs.stat(dir.rel).catch(() => undefined);
    if (!st?.exists || st.type !== 'directory') throw new ToolError(`cwd ${args.cwd} is not a directory`);
    const checked = await ctx.ask.command({ command: args.command, cwd: dir.abs, where: dir.rel || 'the workspace folder', sandboxed: ctx.run.exec.sandboxed });
    const { feedback } = checked;
    const exec = ctx.run.exec;
    const run = (timeoutMs: number) => async () => {
      const r = await exec.run({ command: args.command, cwd: dir.abs, signal: ctx.signal, timeoutMs });
      auditProtectedChanges(ctx, r);
      return r;
    };
    // A read-only command (policy/command/readOnly.ts: `git log -p f`, `grep -rn`) cannot disturb the baseline test run: it runs at once.
    if (checked.readOnly) return commandResult(args.command, await run(COMMAND_TIMEOUT_MS)(), ctx, feedback);
    // Any other command may write (a build, `sed -i`, a test runner's cache): the baseline of the untouched tree goes first.
    const wordsOf = (command: string) => ctx.ask.words?.(command);
    const tests = await commandTestRun(ctx, checked.argv, dir.rel, wordsOf);
    const baseline = await ctx.state.beforeFirstChange?.(tests ? { testRun: tests.narrowed ? 'narrowed' : 'whole' } : undefined);
    // The whole suite before any change: the baseline is that run (the same tree, the same result).
    if (tests && baseline) return baseline;
    // A test run counts as no change, as run_tests' does (its output files are vetted by the policy like the runner's).
    if (tests) return runCommandAsTests(ctx, args.command, tests, run(ctx.workspace.settings.tests.timeoutSeconds * 1000), feedback);
    // Set before it runs: a command that fails or times out may still have written files.
    ctx.state.commandsRan = true;
    return commandResult(args.command, await run(COMMAND_TIMEOUT_MS)(), ctx, feedback);
  },
};

/** The command's status line and output (head and tail when long), and what the user said when asked. */
function commandResult(command: string, r: TaskRunResult, ctx: ToolContext, feedback: string | undefined): ToolResult {
  ctx.signal.throwIfAborted();
  const seconds = (r.durationMs / 1000).toFixed(1);
  const status = r.timedOut
    ? `timed out after ${seconds} s (killed)`
    : r.exitCode === null
      ? `killed after ${seconds} s`
      : `exit ${r.exitCode} after ${seconds} s`;
  const text = [`$ ${command}`, status, r.output.trimEnd(), feedback ? `The user said: ${feedback}` : ''].filter(Boolean).join('\n');
  return r.exitCode === 0 ? ok(text, { exitCode: 0 }) : fail(text, { exitCode: r.exitCode });
}
