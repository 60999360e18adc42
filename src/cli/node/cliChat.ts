import type { ModelMessage } from '../../core/llm';
import type { RunOutcome } from '../../core/orchestrator';
import { errorMessage } from '../../core/base';
import { ChatSession, type Agent } from '../../core/session';
import type { Notifier } from '../../core/ports';
import { attachMentionedResources, expandPromptCommand, isPromptCommand, resourceMentions, type AskPromptArgument, type McpManager } from '../../core/mcp';
import type { RunEndStatus, RunStoppedBy, RunTestsOutcome } from '../../protocol/agentEvents';
import { RUN_EXIT_CODES, runConclusion } from '../../protocol/runResult';
import { ExitCode } from '../io';
import { Watchdog } from './watchdog';

/**
 * The exit code of a goal (docs/cli.md): its status's, refined by its tests (a finish whose last tests
 * failed is no success; one whose remaining failures are all known says so) and by what stopped it.
 */
export function exitCodeOf(outcome: { status: RunEndStatus; tests?: RunTestsOutcome; stoppedBy?: RunStoppedBy }): number {
  return RUN_EXIT_CODES[runConclusion(outcome)];
}

/** Signals that stop the running goal the orderly way (cancel, kill the command's tree, save the history). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * One CLI process's agent: the wired deps (one model client, one history store) and the runs made
 * with them, one at a time, as one chat (core/session): a goal typed after a finished one is a
 * follow-up with the earlier turns in context. Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed) during a run cancels that run: the loop
 * kills the running command's process tree and ends the run as cancelled; a second Ctrl-C while the
 * cancel is still unwinding exits at once. After every run the history is flushed to disk.
 * A watchdog thread ends the process if a run outlives its wall clock or its cancel, or blocks the
 * main thread so that none of this can run (watchdog.ts).
 */
export class CliChat {
  private controller: AbortController | undefined;
  private readonly watchdog = new Watchdog();
  private readonly chat: ChatSession;

  constructor(
    /** The process's one agent (core/session/agent.ts): its deps for every run, disposed by `close()`. */
    private readonly agent: Agent,
    private readonly notifier: Notifier,
    /** MCP prompts as goals (`/mcp.<server>.<prompt> name=value`): the servers, and who asks for a missing argument (none headless). */
    private readonly prompts?: { manager: McpManager; ask?: AskPromptArgument },
  ) {
    this.chat = new ChatSession({ deps: this.agent.deps });
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  /** Cancels the current run; true when there was one. */
  interrupt(): boolean {
    if (!this.controller) return false;
    if (this.controller.signal.aborted) process.exit(ExitCode.cancelled); // a second Ctrl-C does not wait
    this.controller.abort();
    this.chat.stop();
    this.watchdog.cancelled();
    return true;
  }

  /** A goal as the model gets it: an MCP prompt command becomes the prompt's messages; `@server:uri` attaches that resource. */
  async prepareGoal(goal: string): Promise<{ goal: string } | { error: string }> {
    const mentioned = this.prompts ? resourceMentions(goal, this.prompts.manager.serverNames).length > 0 : false;
    if (!isPromptCommand(goal) && !mentioned) return { goal };
    if (!this.prompts) return { error: `${goal.trim().split(/\s/, 1)[0]}: no MCP server is configured (patchpilot.mcp.servers)` };
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    try {
      let text = goal;
      if (isPromptCommand(goal)) {
        const expanded = await expandPromptCommand(this.prompts.manager, goal, this.prompts.ask, controller.signal);
        if ('error' in expanded) return expanded;
        this.notifier.info(`${expanded.command}: the prompt's messages are the goal`);
        text = expanded.text;
      }
      if (!mentioned) return { goal: text };
      const withResources = await attachMentionedResources(this.prompts.manager, text, controller.signal);
      if ('error' in withResources) return withResources;
      for (const a of withResources.attached) this.notifier.info(`attached @${a.server}:${a.uri} (${a.chars} characters)`);
      return { goal: withResources.text };
    } catch (err) {
      return { error: controller.signal.aborted ? 'cancelled' : errorMessage(err) };
    } finally {
      process.off('SIGINT', onSignal);
    }
  }

  async runGoal(goal: string): Promise<RunOutcome> {
    const controller = (this.controller = new AbortController());
    const onSignal = () => this.interrupt();
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    this.watchdog.arm(this.agent.deps.settings.limits.wallClockMinutes * 60_000);
    try {
      const sent = this.chat.send(goal);
      if (sent.kind !== 'started') throw new Error('a goal is already running');
      if (controller.signal.aborted) this.chat.stop();
      return await sent.outcome;
    } finally {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      this.controller = undefined;
      await this.agent.history?.flush().catch((err: unknown) => this.notifier.error(`history not saved: ${errorMessage(err)}`));
      this.watchdog.disarm();
    }
  }

  /** Continues a recorded session: its conversation becomes the earlier turns of the next goal. */
  restore(transcript: readonly ModelMessage[], runId?: string): void {
    this.chat.restore(transcript, runId);
  }

  /** Ends the agent: the MCP servers it started stopped, the history saved and closed. */
  async close(): Promise<void> {
    await this.agent.dispose().catch((err: unknown) => this.notifier.error(`history not saved: ${errorMessage(err)}`));
  }
}
