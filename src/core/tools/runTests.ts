import { isTestDefinitionFile } from '../policy/command/testDefinitionFiles';
import { auditProtectedChanges, gateAction } from './gate';
import { describeTestCommand, formatTestSummary, summarizeTestOutput, type TestCommandResult } from '../testRuns';
import type { TaskRunResult } from '../ports';
import { ToolError, fail, ok, type Tool, type ToolContext, type ToolResult } from './types';
import { approveUntrustedHostRun } from './untrustedHostRun';

export type { TestCommandResult } from '../testRuns';

export const runTestsTool: Tool<Record<string, never>> = {
  name: 'run_tests',
  loop: {
    changesFiles: () => 'workspace',
    isVerdict: (result) => Array.isArray(result.data?.results),
    testsOutcome: (result) => (Array.isArray(result.data?.results) ? (result.ok ? 'passed' : 'failed') : undefined),
  },
  description: "Run the project's configured test commands. Returns each command's exit code, duration and the failing tests with their first error line.",
  schema: { type: 'object', properties: {}, additionalProperties: false },
  readOnly: false,
  async run(_args, ctx) {
    return runConfiguredTests(ctx);
  },
};

/** Runs every configured test command in order (also used after each applied edit). */
export async function runConfiguredTests(ctx: ToolContext): Promise<ToolResult> {
  const commands = ctx.settings.tests.commands;
  if (commands.length === 0)
    return fail('no test commands are configured (setting patchpilot.tests.commands, or --test-cmd); say how you verified the change instead');
  if (ctx.mode === 'plan') throw new ToolError('plan mode: tests are not run');

  const results: TestCommandResult[] = [];
  const parts: string[] = [];
  for (const command of commands) {
    const run = await runGuardedTestCommand(ctx, command, () => ctx.emit?.({ type: 'test-started', command }));
    const summary = summarizeTestOutput(run.output);
    const result: TestCommandResult = { command, exitCode: run.exitCode, durationMs: run.durationMs, timedOut: run.timedOut, output: run.output, summary };
    results.push(result);
    ctx.emit?.({ type: 'test-finished', command, exitCode: run.exitCode, durationMs: run.durationMs, summary: formatTestSummary(summary), output: run.output });
    parts.push(describeTestCommand(result));
  }
  const passed = results.every((r) => r.exitCode === 0);
  const text = `${passed ? 'tests passed' : 'tests FAILED'}\n\n${parts.join('\n\n')}`;
  return passed ? ok(text, { results }) : fail(text, { results });
}

/**
 * One test-like command (a test command, a check command) under the test commands' rules: asks when
 * its definition changed or when it would run unreviewed code unsandboxed, runs in the sandbox when
 * the host has one, and audits protected paths afterwards.
 */
export async function runGuardedTestCommand(ctx: ToolContext, command: string, onStart?: () => void): Promise<TaskRunResult> {
  const askedToRunUnsandboxed = await approveUntrustedHostRun(ctx, command);
  await approveIfRedefined(ctx, command);
  if (!askedToRunUnsandboxed) await approveIfUnsandboxed(ctx, command);
  onStart?.();
  // The command runs the workspace's code, which the agent may have just written (a module the
  // tests require): in the sandbox when the host has one, like any other command that runs code.
  const runner = ctx.exec?.sandboxed ? ctx.exec : ctx.tasks;
  const run = await runner.run({ command, cwd: ctx.root, timeoutMs: ctx.settings.tests.timeoutSeconds * 1000, signal: ctx.signal });
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
  const named = [...ctx.run.changedFiles].filter((f) => command.includes(f) || (!ctx.testGuard && isTestDefinitionFile(f)));
  const guarded = ctx.testGuard?.check(command.trim().split(/\s+/), ctx.root);
  if (named.length === 0 && !guarded) return;
  const reason = [guarded?.reason, named.length ? `this run changed ${named.join(', ')}, which can change what "${command}" does` : '']
    .filter(Boolean)
    .join('; ');
  await gateAction(ctx, { kind: 'tests', title: command, reason }, { verdict: 'ask', rule: 'ask:test-definition-changed', reason });
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
  if (!ctx.exec || ctx.exec.sandboxed || (ctx.mode !== 'auto' && ctx.mode !== 'auto-edit')) return;
  if (ctx.run.changedFiles.size === 0 && !ctx.run.commandsRan) return;
  const files = [...ctx.run.changedFiles];
  const listed = files.length > 5 ? `${files.slice(0, 5).join(', ')} and ${files.length - 5} more` : files.join(', ');
  const what = [
    files.length ? `code this run changed (${listed})` : '',
    ctx.run.commandsRan ? 'whatever the shell commands of this run wrote (they can change any file, tests included)' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const reason = `Commands are not sandboxed here, and "${command}" runs ${what}, which the agent wrote without review.`;
  await gateAction(ctx, { kind: 'tests', title: command, reason }, { verdict: 'ask', rule: 'ask:unsandboxed-code', reason });
}
