import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { ModelConfigError } from '../../core/llm';
import { UserError } from '../../core/base/errors';
import type { HistoryStore } from '../../core/history';
import { loadSession } from '../../core/session';
import { createAgentDeps } from '../node/agentDeps';
import { AgentSession, exitCodeOf } from '../node/agentSession';
import { runRepl } from '../node/repl';
import { NonInteractiveApprover, TerminalApprover, headlessNotice } from '../node/approvers';
import { DecliningElicitor, TerminalElicitor } from '../node/elicitors';
import { askPromptArgumentOnTerminal } from '../node/promptArguments';
import { progressPrinter } from '../node/eventPrinter';
import { JsonEventStream } from '../node/jsonEvents';
import { RUN_CONFIG_OPTIONS, loadRunConfig, stderrNotifier } from '../node/runConfig';

export const usage = `Usage:
  patchpilot run --goal TEXT [options]
      Work toward the goal in the workspace: read, patch, run tests, until done or a limit.
  patchpilot run [options]
      On a terminal: an interactive session (a goal prompt; /exit or Ctrl-D quits).
  --workspace DIR       the workspace (default: the current folder)
  --approve MODE        ask | auto-edit | auto | plan (default: patchpilot.approval.mode, else ask)
  --dry-run             the same as --approve plan: read and propose (each proposed patch is
                        shown as a diff), write and run nothing
  --max-steps N         model steps before stopping (default 50)
  --max-tokens N        tokens the goal may spend, every model, summaries and subagents counted
                        (patchpilot.limits.maxTokens); the run stops before a request would cross it
  --max-cost-usd X      US dollars the goal may spend (patchpilot.limits.maxCostUsd); the daily limit
                        of the workspace is patchpilot.limits.dailyCostUsd
  --test-cmd CMD        a test command (repeatable; replaces patchpilot.tests.commands)
  --no-detect-tests     without --test-cmd or patchpilot.tests.commands, no test command is
                        detected from the workspace's files (package.json's test script, pytest,
                        cargo, go, make, gradle, maven, dotnet, just, task); the run then has none
  --provider P          openai, anthropic, google, deepseek, mistral, groq, openrouter, xai,
                        ollama, lmstudio, vllm, llamacpp or custom (or PATCHPILOT_PROVIDER):
                        its default endpoint and its key variable (DEEPSEEK_API_KEY...)
  --base-url URL        OpenAI-compatible endpoint (or PATCHPILOT_BASE_URL)
  --model M             the model (or PATCHPILOT_MODEL); --fast-model M (or PATCHPILOT_FAST_MODEL)
  --provider anthropic  Anthropic's Messages API instead of chat completions (or PATCHPILOT_PROVIDER);
                        the key then comes from PATCHPILOT_API_KEY, else ANTHROPIC_API_KEY;
                        --thinking-budget N: extended thinking, N tokens per reply (>= 1024)
  --llm-command CMD     a program that serves the model: it reads a chat-completions request (JSON)
                        on stdin and streams the reply on stdout (or PATCHPILOT_LLM_COMMAND; never
                        taken from the workspace's settings)
  --trust-workspace     honour the workspace's own base URL, test and check commands, allowlists,
                        approval mode and auto-commit from .vscode/settings.json
                        (ignored otherwise, with a warning)
  --resume RUN          continue the session a run belongs to (its id, a unique prefix,
                        or "last"), from the history: the goal (or the prompt) is a follow-up
  --json                one JSON event per line on stdout instead of the summary (the model's
                        reasoning comes as "reasoning/delta" events), the last one the "result"
                        (docs/api.md)
  --show-reasoning      print the model's reasoning (thinking) in the progress output too
The API key comes from PATCHPILOT_API_KEY, else the provider's variable (OPENAI_API_KEY without
a provider; none for servers on this machine); web_search's Brave key from
PATCHPILOT_BRAVE_API_KEY. MCP servers (patchpilot.mcp.servers) need approval: asked on a terminal,
else given ahead with patchpilot mcp approve NAME; so do a workspace's hooks (patchpilot.hooks,
docs/hooks.md): patchpilot hooks approve.
Without a terminal (or with --json) nobody can be asked: the run says so before it starts, what needs
approval is refused and the model is told; a run whose every edit was refused that way ends "blocked".
Ctrl-C, SIGTERM or SIGHUP cancel the running goal (its command's process tree is killed); at the prompt Ctrl-C quits.
Exit codes: 0 finished (tests passed or none ran); 1 error (the model failed, its stream broke off,
the loop guard); 2 usage or settings error; 3 finished with known test failures only; 4 finished
with tests failing; 5 blocked; 6 a budget ran out (steps, wall clock, tokens, cost); 130 cancelled.
The status is the one \`patchpilot history list\` shows.`;

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

  const interactive = terminal && !json;
  const approver = interactive ? new TerminalApprover() : new NonInteractiveApprover();
  const notice = interactive ? undefined : headlessNotice(config.settings.approval.mode);
  if (notice) notifier.warn(notice);
  let built;
  try {
    built = await createAgentDeps({
      root,
      config,
      approver,
      notifier,
      mcpElicitor: interactive ? new TerminalElicitor() : new DecliningElicitor(notifier),
      onEvent: stream ? stream.onEvent : progressPrinter(undefined, { reasoning: args['show-reasoning'] === true }),
    });
  } catch (err) {
    if (err instanceof ModelConfigError) return settingsError(err.message);
    throw err;
  }
  const mcp = built.mcp;
  const session = new AgentSession(
    built.deps,
    built.history,
    notifier,
    () => (mcp ? mcp.dispose() : Promise.resolve()),
    mcp ? { manager: mcp, ...(interactive ? { ask: askPromptArgumentOnTerminal() } : {}) } : undefined,
  );
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
async function resumeSession(session: AgentSession, history: HistoryStore | undefined, ref: string): Promise<string> {
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
