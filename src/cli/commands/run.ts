import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, flag, parseArgs, rejectUnknownFlags } from '../io';
import { ConfigError, loadCliConfig, APPROVAL_MODES, type SettingKey } from '../../core/config';
import { ModelConfigError } from '../../core/llm';
import { Orchestrator } from '../../core/orchestrator';
import type { Notifier } from '../../core/ports';
import type { RunEndStatus } from '../../protocol/agentEvents';
import { createAgentDeps } from '../node/agentDeps';
import { NonInteractiveApprover, TerminalApprover } from '../node/approvers';
import { jsonLinePrinter, progressPrinter } from '../node/eventPrinter';

export const usage = `Usage:
  patchpilot run --goal TEXT [options]
      Work toward the goal in the workspace: read, patch, run tests, until done or a limit.
  --workspace DIR       the workspace (default: the current folder)
  --approve MODE        ask | auto-edit | auto | plan (default: patchpilot.approval.mode, else ask)
  --max-steps N         model steps before stopping (default 50)
  --test-cmd CMD        a test command (repeatable; replaces patchpilot.tests.commands)
  --base-url URL        OpenAI-compatible endpoint (or PATCHPILOT_BASE_URL)
  --model M             the model (or PATCHPILOT_MODEL); --fast-model M (or PATCHPILOT_FAST_MODEL)
  --trust-workspace     honour the workspace's own base URL, test commands and allowlists
                        from .vscode/settings.json (ignored otherwise)
  --json                one JSON event per line on stdout instead of the summary
The API key comes from PATCHPILOT_API_KEY, else OPENAI_API_KEY.
Without a terminal nothing can be asked: what needs approval is refused and the model is told.
Exit: 0 finished, 1 stopped by a limit or failed, 2 usage or settings error, 130 cancelled.`;

const FLAGS = ['goal', 'workspace', 'approve', 'max-steps', 'test-cmd', 'base-url', 'model', 'fast-model', 'json', 'trust-workspace'];

const EXIT: Record<RunEndStatus, number> = { finished: ExitCode.ok, limit: ExitCode.failed, failed: ExitCode.failed, cancelled: ExitCode.cancelled };

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['json', 'trust-workspace']);
  rejectUnknownFlags(args, FLAGS);
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const goal = flag(args, 'goal')?.trim();
  if (!goal) throw new UsageError('--goal is required');
  const workspace = path.resolve(flag(args, 'workspace') ?? process.cwd());
  if (!(await stat(workspace).catch(() => undefined))?.isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  const root = await realpath(workspace);
  const json = flag(args, 'json') === 'true';

  const flags: Partial<Record<SettingKey, unknown>> = {};
  const mode = flag(args, 'approve');
  if (mode !== undefined) {
    if (!(APPROVAL_MODES as readonly string[]).includes(mode)) throw new UsageError(`--approve must be one of ${APPROVAL_MODES.join(', ')}`);
    flags['patchpilot.approval.mode'] = mode;
  }
  const maxSteps = flag(args, 'max-steps');
  if (maxSteps !== undefined) {
    if (!/^\d+$/.test(maxSteps) || Number(maxSteps) < 1) throw new UsageError('--max-steps must be a positive integer');
    flags['patchpilot.limits.maxSteps'] = Number(maxSteps);
  }
  const testCmds = args.flags.get('test-cmd');
  if (testCmds) flags['patchpilot.tests.commands'] = testCmds;
  for (const [name, key] of [['base-url', 'patchpilot.llm.baseUrl'], ['model', 'patchpilot.llm.model'], ['fast-model', 'patchpilot.llm.fastModel']] as const) {
    const value = flag(args, name);
    if (value !== undefined) flags[key] = value;
  }

  const notifier: Notifier = {
    info: (m) => process.stderr.write(`patchpilot: ${m}\n`),
    warn: (m) => process.stderr.write(`patchpilot: warning: ${m}\n`),
    error: (m) => process.stderr.write(`patchpilot: error: ${m}\n`),
  };
  let config;
  try {
    config = loadCliConfig({ workspace: root, env: process.env, flags, trusted: flag(args, 'trust-workspace') === 'true' });
  } catch (err) {
    if (err instanceof ConfigError) return settingsError(err.message);
    throw err;
  }
  for (const w of config.warnings) notifier.warn(w);
  for (const i of config.ignored) notifier.warn(`ignored ${i.key} from ${i.origin}: ${i.reason} (--trust-workspace to use it)`);
  if (!config.settings.llm.baseUrl) return settingsError('no model endpoint: set --base-url, PATCHPILOT_BASE_URL or patchpilot.llm.baseUrl');
  if (!config.settings.llm.model) return settingsError('no model: set --model, PATCHPILOT_MODEL or patchpilot.llm.model');

  const interactive = !json && process.stdin.isTTY === true && process.stderr.isTTY === true;
  const approver = interactive ? new TerminalApprover() : new NonInteractiveApprover();
  let built;
  try {
    built = await createAgentDeps({ root, config, approver, notifier, onEvent: json ? jsonLinePrinter() : progressPrinter() });
  } catch (err) {
    if (err instanceof ModelConfigError) return settingsError(err.message);
    throw err;
  }

  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.cancelled); // a second Ctrl-C does not wait
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const outcome = await new Orchestrator(built.deps).run(goal, { signal: controller.signal });
    if (!json && outcome.summary) process.stdout.write(`${outcome.summary}\n`);
    return EXIT[outcome.status];
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await built.history?.close().catch((err: unknown) => notifier.error(`history not saved: ${err instanceof Error ? err.message : String(err)}`));
  }
}

function settingsError(message: string): number {
  process.stderr.write(`patchpilot run: ${message}\n`);
  return ExitCode.usage;
}
