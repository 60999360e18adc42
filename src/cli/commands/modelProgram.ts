import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { ConfigError, loadCliConfig } from '../../core/config';
import { defaultUserStateDir } from '../../core/config';
import { stateDirOf } from '../../core/session';
import { describeModelProgramBinding, ModelProgramApprovals } from '../../core/approvals';
import { exactLine } from '../../protocol/exactCommand';

const OPTIONS = { workspace: { type: 'string' }, 'llm-command': { type: 'string' } } as const;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'status' && sub !== 'approve') throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'a subcommand is needed: status or approve');
  const { values: args, positionals } = parseCommandLine(rest, OPTIONS);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const workspace = path.resolve(args.workspace ?? process.cwd());
  if (!(await stat(workspace).catch(() => undefined))?.isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  const root = await realpath(workspace);
  let config;
  try {
    config = loadCliConfig({
      workspace: root,
      env: process.env,
      flags: args['llm-command'] !== undefined ? { 'patchpilot.llm.command': args['llm-command'] } : {},
      trusted: false,
    });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`patchpilot model-program: ${err.message}\n`);
    return ExitCode.usage;
  }
  const line = config.settings.llm.command;
  if (!line) {
    process.stdout.write('no model program is set (patchpilot.llm.command)\n');
    return ExitCode.ok;
  }
  const approvals = new ModelProgramApprovals({ root, stateDir: stateDirOf(root, config.settings.history.path), userStateDir: defaultUserStateDir() });
  const check = approvals.check(line);
  const files = Object.keys(check.files);
  const shown = exactLine(line);
  if (sub === 'status') {
    if (!check.tree) process.stdout.write(`the model program \`${shown}\` runs no workspace file: it needs no approval\n`);
    else process.stdout.write(`${check.approved ? 'approved' : `NOT approved: ${check.reason}`}\n${describeModelProgramBinding(check)}\n`);
    return check.approved ? ExitCode.ok : ExitCode.failed;
  }
  if (!check.tree) process.stdout.write(`the model program \`${shown}\` runs no workspace file: nothing to approve\n`);
  else {
    const approved = approvals.approve(line);
    process.stdout.write(`approved the model program \`${shown}\` with ${files.join(', ')} as they are now\n${describeModelProgramBinding(approved)}\n`);
  }
  if (approvals.persistProblem) process.stderr.write(`patchpilot: warning: ${approvals.persistProblem}\n`);
  return ExitCode.ok;
}
