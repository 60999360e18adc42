import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { ModelConfigError } from '../../core/llm';
import { UserError } from '../../core/base';
import type { HistoryStore } from '../../core/history';
import { createAgent, loadSession } from '../../core/session';
import { cliHost } from '../node/cliHost';
import { CliChat, exitCodeOf } from '../node/cliChat';
import { runRepl } from '../node/repl';
import { NonInteractiveApprover, TerminalApprover, headlessNotice } from '../node/approvers';
import { DecliningElicitor, TerminalElicitor } from '../node/elicitors';
import { askPromptArgumentOnTerminal } from '../node/promptArguments';
import { progressPrinter } from '../node/eventPrinter';
import { JsonEventStream } from '../node/jsonEvents';
import { RUN_CONFIG_OPTIONS, loadRunConfig, stderrNotifier } from '../node/runConfig';
import { startCliTelemetry } from '../node/telemetry';
import { withTelemetry, type Telemetry } from '../../core/telemetry';
import type { ResolvedConfig } from '../../core/config';

const OPTIONS = {
  goal: { type: 'string' },
  workspace: { type: 'string' },
  ...RUN_CONFIG_OPTIONS,
  json: { type: 'boolean' },
  'show-reasoning': { type: 'boolean' },
  resume: { type: 'string' },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values: args, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const goal = args.goal?.trim();
  if (args.goal !== undefined && !goal) throw new UsageError('--goal is empty');
  const json = args.json === true;
  const terminal = process.stdin.isTTY === true && process.stderr.isTTY === true;
  if (!goal && json) throw new UsageError('--goal is required with --json');
  if (!goal && !terminal)
    throw new UsageError('--goal is required when stdin is not a terminal (without it, run opens an interactive session, which needs one)');
  const workspace = path.resolve(args.workspace ?? process.cwd());
  if (!(await stat(workspace).catch(() => undefined))?.isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  const root = await realpath(workspace);

  const notifier = stderrNotifier;
  const stream = json ? new JsonEventStream() : undefined;
  const settingsError = (message: string): number => {
    process.stderr.write(`patchpilot run: ${message}\n`);
    return stream ? stream.endNotStarted(message, ExitCode.usage) : ExitCode.usage;
  };
  const config = await loadRunConfig(root, args, notifier);
  if (typeof config === 'string') return settingsError(config);
  const telemetry = await startCliTelemetry(config.settings, stderrNotifier);
  if (typeof telemetry === 'string') return settingsError(telemetry);
  try {
    return await runWorkspace({ args, goal, json, terminal, root, config, telemetry, stream, settingsError });
  } finally {
    // Before the process exits: the last spans and the metrics go out.
    await telemetry?.shutdown();
  }
}

interface RunInputs {
  args: ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];
  goal: string | undefined;
  json: boolean;
  terminal: boolean;
  root: string;
  config: ResolvedConfig;
  telemetry: Telemetry | undefined;
  /** The --json event stream (its last line the result event); undefined without --json. */
  stream: JsonEventStream | undefined;
  /** Says a settings problem and returns the usage exit code (ending the --json stream with a not-started result). */
  settingsError: (message: string) => number;
}

async function runWorkspace({ args, goal, json, terminal, root, config, telemetry, stream, settingsError }: RunInputs): Promise<number> {
  const notifier = stderrNotifier;
  const interactive = terminal && !json;
  const approver = interactive ? new TerminalApprover() : new NonInteractiveApprover();
  const notice = interactive ? undefined : headlessNotice(config.settings.approval.mode);
  if (notice) notifier.warn(notice);
  let built;
  try {
    const host = cliHost({
      root,
      approver,
      notifier,
      elicitor: interactive ? new TerminalElicitor() : new DecliningElicitor(notifier),
      onEvent: withTelemetry(stream ? stream.onEvent : progressPrinter(undefined, { reasoning: args['show-reasoning'] === true }), telemetry),
    });
    built = await createAgent(host, config);
  } catch (err) {
    if (err instanceof ModelConfigError) return settingsError(err.message);
    throw err;
  }
  const mcp = built.mcp;
  const session = new CliChat(built, notifier, mcp ? { manager: mcp, ...(interactive ? { ask: askPromptArgumentOnTerminal() } : {}) } : undefined);
  const resume = args.resume;
  if (resume !== undefined) {
    try {
      const resumed = await resumeSession(session, built.history, resume);
      notifier.info(resumed);
    } catch (err) {
      await session.close();
      if (err instanceof UserError) return settingsError(`--resume: ${err.message}`);
      throw err;
    }
  }
  if (!goal) return runRepl(session);
  try {
    const prepared = await session.prepareGoal(goal);
    if ('error' in prepared) return settingsError(prepared.error);
    const outcome = await session.runGoal(prepared.goal);
    // A blocked run's summary is the model's account of work that did not happen: not for stdout.
    if (!json && outcome.summary && outcome.status === 'finished') process.stdout.write(`${outcome.summary}\n`);
    if (outcome.status === 'failed' || outcome.status === 'interrupted') notifier.info(retryHint(outcome.runId));
    stream?.endWithRun();
    return exitCodeOf(outcome);
  } finally {
    await session.close();
  }
}

/** Puts the recorded session of a run back into the chat; returns what to tell the user. */
async function resumeSession(session: CliChat, history: HistoryStore | undefined, ref: string): Promise<string> {
  if (!history) throw new UserError('there is no history database to resume from');
  const { run, transcript, recorded } = await loadSession(history, ref);
  session.restore(transcript, recorded ? run.id : undefined);
  const goal = run.goal.length > 60 ? `${run.goal.slice(0, 57)}...` : run.goal;
  return `resuming run ${run.id.slice(0, 8)} (${run.status}: "${goal}") with ${transcript.length} message(s)${recorded ? '' : ', rebuilt from its steps (it never ended)'}`;
}

/** How to try again after a failure: the same command, or a follow-up that continues the recorded run. */
function retryHint(runId: string | null): string {
  const resume = runId ? `; to continue where it stopped instead: patchpilot run --resume ${runId.slice(0, 8)} --goal "continue"` : '';
  return `to retry, run the same command again${resume}`;
}
