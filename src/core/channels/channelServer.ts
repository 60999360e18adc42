/**
 * Runs goals sent from a chat service (`patchpilot serve --telegram`): a message from an allowlisted
 * chat is a goal, run one at a time; its progress is one status message edited as the run goes
 * (statusMessage.ts) and its end a message with the summary; approvals are asked in that chat with
 * buttons (channelApprover.ts); `/stop` cancels. A message from any other chat gets a refusal and
 * runs nothing. The allowlist comes from the user's own settings only
 * (`patchpilot.channels.telegram.allowedChatIds` is user-only): a repository cannot add a chat.
 * Approvals come from people, not chats: the goal's sender answers them, or, when the user lists
 * them (`approverIds`, user-only too), those people; another member of a group answers nothing.
 */
import type { AgentEvent, RunEndStatus } from '../../protocol/agentEvents';
import { errorMessage } from '../base/errors';
import type { Approver } from '../ports';
import type { Channel, IncomingMessage } from './channel';
import { ChannelApprover } from './channelApprover';
import { progressLine } from './progressLines';
import { StatusMessage } from './statusMessage';

/** What runs the goals: the CLI's CliChat (one chat session, one run at a time). */
export interface ChannelGoalRunner {
  readonly running: boolean;
  runGoal(goal: string): Promise<{ status: RunEndStatus; reason: string; summary?: string; steps: number }>;
  /** Cancels the current run; true when there was one. */
  interrupt(): boolean;
}

export interface ChannelServerOptions {
  channel: Channel;
  allowedChatIds: readonly string[];
  /** The people whose presses answer approvals; empty: the sender of the running goal. */
  approverIds?: readonly string[];
  /** Shortest time between two edits of the status message (default 1500 ms). */
  statusIntervalMs?: number;
  /** Where the server says what it does (the CLI: stderr). */
  log(line: string): void;
}

export const REFUSAL = 'This chat is not allowed to run PatchPilot goals. Add its id to patchpilot.channels.telegram.allowedChatIds in your user settings.';
const HELP = 'Send a goal as a message to run it in the workspace. /stop cancels the running goal.';

export class ChannelServer {
  /** Asks in the chat of the running goal; pass it to the agent's wiring. */
  readonly approver: Approver;
  private readonly allowed: ReadonlySet<string>;
  private current: { chatId: string; senderId: string; status: StatusMessage } | undefined;
  private stopping = false;

  constructor(private readonly o: ChannelServerOptions) {
    this.allowed = new Set(o.allowedChatIds.map((id) => id.trim()));
    const approvers = (o.approverIds ?? []).map((id) => id.trim()).filter(Boolean);
    this.approver = new ChannelApprover(o.channel, () =>
      this.current ? { chatId: this.current.chatId, answerers: new Set(approvers.length ? approvers : [this.current.senderId]) } : undefined,
    );
  }

  /** The run's events (the wiring's onEvent): progress lines for the chat that sent the goal. */
  readonly onEvent = (e: AgentEvent): void => {
    const line = progressLine(e);
    if (line && this.current && e.type !== 'run/finished') this.current.status.add(line);
  };

  /** Receives messages until the channel closes. */
  serve(runner: ChannelGoalRunner): Promise<void> {
    return this.o.channel.listen((m) => void this.receive(m, runner).catch((err: unknown) => this.o.log(`error: ${errorMessage(err)}`)));
  }

  private async receive(m: IncomingMessage, runner: ChannelGoalRunner): Promise<void> {
    const text = m.text.trim();
    if (!this.allowed.has(m.chatId)) {
      this.o.log(`refused a message from chat ${m.chatId} (not in patchpilot.channels.telegram.allowedChatIds)`);
      await this.o.channel.send(m.chatId, `${REFUSAL} (This chat's id: ${m.chatId}.)`);
      return;
    }
    const command = /^\/(\w+)/.exec(text)?.[1]?.toLowerCase();
    if (command === 'stop') return this.stop(m.chatId, runner);
    if (command === 'start' || command === 'help' || !text) {
      await this.o.channel.send(m.chatId, HELP);
      return;
    }
    if (runner.running || this.current) {
      await this.o.channel.send(m.chatId, 'A goal is already running; /stop cancels it.');
      return;
    }
    await this.run(m, text, runner);
  }

  private async run({ chatId, senderId }: IncomingMessage, goal: string, runner: ChannelGoalRunner): Promise<void> {
    const status = new StatusMessage(
      this.o.channel,
      chatId,
      `Running: ${goal.length > 80 ? `${goal.slice(0, 77)}...` : goal}`,
      this.o.statusIntervalMs ?? 1500,
      (err) => this.o.log(`status message not updated: ${errorMessage(err)}`),
    );
    this.current = { chatId, senderId, status };
    this.o.log(`chat ${chatId}: running "${goal}" (sent by user ${senderId})`);
    try {
      const outcome = await runner.runGoal(goal);
      await status.flush();
      const summary = outcome.summary?.trim();
      const head = `${outcome.status}: ${outcome.reason} (${outcome.steps} step${outcome.steps === 1 ? '' : 's'})`;
      await this.o.channel.send(chatId, summary && outcome.status === 'finished' ? `${head}\n\n${summary}` : head);
      this.o.log(`chat ${chatId}: ${outcome.status}`);
    } catch (err) {
      await status.flush();
      await this.o.channel.send(chatId, `The goal could not run: ${errorMessage(err)}`);
    } finally {
      this.current = undefined;
      this.stopping = false;
    }
  }

  private async stop(chatId: string, runner: ChannelGoalRunner): Promise<void> {
    if (!this.current || this.stopping) {
      await this.o.channel.send(chatId, this.stopping ? 'Stopping...' : 'Nothing is running.');
      return;
    }
    // A second interrupt while the first unwinds would end the process (CliChat): once is enough.
    this.stopping = true;
    runner.interrupt();
    await this.o.channel.send(chatId, 'Stopping...');
  }
}
