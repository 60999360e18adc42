import { homedir } from 'node:os';
import { allowedByUserRules } from '../policy/command/userAllowed';
import { requireApprovalWhenUnsandboxed } from '../sandbox/autoMode';
import { auditProtectedChanges, gateAction } from './gate';
import { resolveWorkspacePath } from './paths';
import { ToolError, fail, ok, type Tool } from './types';

export const COMMAND_TIMEOUT_MS = 120_000;

interface Args {
  command: string;
  cwd?: string;
}

export const runCommandTool: Tool<Args> = {
  name: 'run_command',
  description:
    'Run a shell command in the workspace (cwd: a workspace-relative directory). The policy decides: allowed commands run, ' +
    'others need approval, dangerous ones are denied. Output keeps its head and tail. Use run_tests for the test suite.',
  schema: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1 },
      cwd: { type: 'string' },
    },
    required: ['command'],
    additionalProperties: false,
  },
  // A command can write anything: the checkpoint covers the whole workspace.
  loop: { changesFiles: () => 'workspace', hookName: 'Bash' },
  readOnly: false,
  async run(args, ctx) {
    if (!ctx.commandPolicy || !ctx.exec) throw new ToolError('running commands is not available in this host');
    const dir = await resolveWorkspacePath(ctx, args.cwd ?? '.', 'list');
    const st = await ctx.fs.stat(dir.rel).catch(() => undefined);
    if (!st?.exists || st.type !== 'directory') throw new ToolError(`cwd ${args.cwd} is not a directory`);
    let decision = ctx.commandPolicy.check({ command: args.command, workspaceRoot: ctx.root, cwd: dir.abs, homeDir: homedir() });
    // Whatever lets it run unasked (auto mode, the user's allow rules): without a sandbox, workspace code still asks.
    if (ctx.mode === 'auto' || allowedByUserRules(decision)) decision = requireApprovalWhenUnsandboxed(decision, ctx.exec.sandboxed);
    const { feedback } = await gateAction(
      ctx,
      { kind: 'command', title: args.command, reason: decision.reason, detail: `in ${dir.rel || 'the workspace folder'}` },
      decision,
    );
    // Any command may write (a build, `sed -i`, a test runner's cache): the baseline of the untouched tree goes first.
    await ctx.run.beforeFirstChange?.();
    // Set before it runs: a command that fails or times out may still have written files.
    ctx.run.commandsRan = true;
    const r = await ctx.exec.run({ command: args.command, cwd: dir.abs, signal: ctx.signal, timeoutMs: COMMAND_TIMEOUT_MS });
    auditProtectedChanges(ctx, r);
    ctx.signal.throwIfAborted();
    const seconds = (r.durationMs / 1000).toFixed(1);
    const status = r.timedOut
      ? `timed out after ${seconds} s (killed)`
      : r.exitCode === null
        ? `killed after ${seconds} s`
        : `exit ${r.exitCode} after ${seconds} s`;
    const text = [`$ ${args.command}`, status, r.output.trimEnd(), feedback ? `The user said: ${feedback}` : ''].filter(Boolean).join('\n');
    return r.exitCode === 0 ? ok(text, { exitCode: 0 }) : fail(text, { exitCode: r.exitCode });
  },
};
