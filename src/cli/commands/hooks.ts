import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { ConfigError, loadCliConfig, type HookCommand } from '../../core/config';
import { describeHook } from '../../core/hooks';
import { hookApprovalsOf } from '../../core/session';

const OPTIONS = { workspace: { type: 'string' }, 'trust-workspace': { type: 'boolean' }, json: { type: 'boolean' } } as const;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'list' && sub !== 'approve') throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'a subcommand is needed: list or approve');
  const { values: args, positionals } = parseCommandLine(rest, OPTIONS);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const workspace = path.resolve(args.workspace ?? process.cwd());
  if (!(await stat(workspace).catch(() => undefined))?.isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  const root = await realpath(workspace);
  let config;
  try {
    config = loadCliConfig({ workspace: root, env: process.env, flags: {}, trusted: args['trust-workspace'] === true });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`patchpilot hooks: ${err.message}\n`);
    return ExitCode.usage;
  }
  for (const i of config.ignored.filter((x) => x.key === 'patchpilot.hooks'))
    process.stderr.write(`patchpilot: warning: ignored ${i.key} from ${i.origin}: ${i.reason} (--trust-workspace to use it)\n`);
  const hooks = config.settings.hooks;
  const approvals = hookApprovalsOf(root, config.settings);
  if (sub === 'list') {
    const rows = hooks.map((h) => ({ ...h, approved: approvals.isApproved(h) }));
    if (args.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else if (rows.length === 0) process.stdout.write('no hooks configured (patchpilot.hooks)\n');
    else for (const h of rows) process.stdout.write(`${statusOf(h, h.approved)}  ${describeHook(h)}\n`);
    return ExitCode.ok;
  }
  const waiting = hooks.filter((h) => !approvals.isApproved(h));
  if (waiting.length === 0) process.stdout.write('no workspace hook waits for approval\n');
  for (const h of waiting) {
    approvals.approve(h);
    process.stdout.write(`approved ${describeHook(h)}\n`);
  }
  if (approvals.persistProblem) process.stderr.write(`patchpilot: warning: ${approvals.persistProblem}\n`);
  return ExitCode.ok;
}

function statusOf(h: HookCommand, approved: boolean): string {
  return h.fromWorkspace ? (approved ? 'workspace, approved' : 'workspace, NOT approved') : 'user';
}
