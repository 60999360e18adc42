import { Orchestrator } from '../orchestrator/orchestrator';
import type { OrchestratorDeps, RunOptions, RunOutcome } from '../orchestrator/types';
import type { ModelMessage } from '../llm/types';

/** Runs one goal; the Orchestrator by default, a stand-in in tests. */
export type GoalRunner = (deps: OrchestratorDeps, goal: string, options: RunOptions) => Promise<RunOutcome>;

export interface ChatSessionOptions {
  /** The deps of the next run; read at each run's start, so changed settings or trust apply to the next message. */
  deps: OrchestratorDeps | (() => OrchestratorDeps | Promise<OrchestratorDeps>);
  runner?: GoalRunner;
  /** Earlier messages kept for follow-ups (oldest whole turns dropped first). Default 400. */
  maxEarlierMessages?: number;
  /** A run that failed to start (deps could not be built): for the host to show. */
  onError?(err: unknown): void;
}

export type SendResult =
  | { kind: 'started'; outcome: Promise<RunOutcome> }
  /** A run is working: the message reaches the model at its next step (or starts the next run if the run ends first). */
  | { kind: 'queued' };

const defaultRunner: GoalRunner = (deps, goal, options) => new Orchestrator(deps).run(goal, options);

/**
 * A chat: several user messages, one conversation. The first message is a run's goal; a follow-up
 * after that run is the next run's goal with the earlier turns in context; a message sent while a
 * run works goes to that run's inbox and reaches the model at its next step. Owns no UI and no
 * process signals: the VS Code chat and the CLI's interactive session both drive it.
 */
export class ChatSession {
  private transcript: ModelMessage[] = [];
  /** The run whose recorded transcript `transcript` is, if it was not capped since (the history then stores a reference). */
  private transcriptRun: string | undefined;
  /** Waiting for the model's next step; notes come from the host, not the user. */
  private inbox: { text: string; note?: true }[] = [];
  private current: { controller: AbortController; done: Promise<RunOutcome> } | undefined;
  /** Counts new chats: a run stopped by one must not write its conversation into the next. */
  private generation = 0;
  private readonly runner: GoalRunner;

  constructor(private readonly options: ChatSessionOptions) {
    this.runner = options.runner ?? defaultRunner;
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** The conversation so far (no system prompt): what the next run sees as earlier turns. */
  get earlier(): readonly ModelMessage[] {
    return this.transcript;
  }

  /** Messages waiting for the model's next step. */
  get queued(): readonly string[] {
    return this.inbox.map((m) => m.text);
  }

  send(text: string): SendResult {
    const message = text.trim();
    if (!message) throw new Error('an empty message');
    if (this.current) {
      this.inbox.push({ text: message });
      return { kind: 'queued' };
    }
    return { kind: 'started', outcome: this.start(message) };
  }

  /**
   * Something the host learned while a run works (a run-on-save test result): it reaches the model
   * at the run's next step, like a queued message. False when no run works (nothing to tell).
   */
  note(text: string): boolean {
    const message = text.trim();
    if (!this.current || !message) return false;
    this.inbox.push({ text: message, note: true });
    return true;
  }

  /**
   * Something the model must know whether or not a run works (the user undid its patch, run on save
   * found news): at the working run's next step, else as part of the conversation the next message
   * continues. Says which.
   */
  tell(text: string): 'now' | 'next' {
    const message = text.trim();
    if (this.note(message)) return 'now';
    if (message) {
      this.transcript = [...this.transcript, { role: 'user', content: message }];
      this.transcriptRun = undefined; // no longer the recorded transcript of a run
    }
    return 'next';
  }

  /** Cancels the working run; true when there was one. Queued messages are dropped with it. */
  stop(): boolean {
    if (!this.current) return false;
    this.inbox = [];
    this.current.controller.abort();
    return true;
  }

  /** Resolves when no run works and none is about to start (queued follow-ups included). */
  whenIdle(): Promise<void> {
    const current = this.current;
    if (!current) return Promise.resolve();
    return current.done.then(
      () => this.whenIdle(),
      () => this.whenIdle(),
    );
  }

  /**
   * A new chat: stops a working run and forgets the conversation. The stopped run may take a moment
   * to end; what it ends with is dropped, and a message sent meanwhile starts the new chat's first run.
   */
  reset(): void {
    this.stop();
    this.generation++;
    this.transcript = [];
    this.transcriptRun = undefined;
  }

  /** Continues a chat kept by the host (a reloaded window) or by the history (`runId`: the run it was recorded by). */
  restore(transcript: readonly ModelMessage[], runId?: string): void {
    if (this.current) throw new Error('cannot restore a chat while a run works');
    this.transcript = [...transcript];
    this.transcriptRun = runId;
  }

  private start(goal: string): Promise<RunOutcome> {
    const controller = new AbortController();
    const done = this.runOne(goal, controller);
    this.current = { controller, done };
    return done;
  }

  private async runOne(goal: string, controller: AbortController): Promise<RunOutcome> {
    let outcome: RunOutcome;
    const generation = this.generation;
    try {
      const deps = typeof this.options.deps === 'function' ? await this.options.deps() : this.options.deps;
      const inbox = { take: () => this.inbox.splice(0).map((m) => m.text) };
      outcome = await this.runner(deps, goal, { signal: controller.signal, earlier: this.transcript, earlierRunId: this.transcriptRun, inbox });
      if (generation === this.generation) {
        this.transcript = cap(outcome.transcript, this.options.maxEarlierMessages ?? 400);
        this.transcriptRun = this.transcript.length === outcome.transcript.length ? (outcome.runId ?? undefined) : undefined;
      }
    } catch (err) {
      this.current = undefined;
      this.inbox = [];
      this.options.onError?.(err);
      throw err;
    }
    this.current = undefined;
    // Typed during the run's last step, or after Stop while the run wound down (Stop empties the
    // inbox): the model never saw them, so they are the next run's goal. A host note (a test
    // result) alone starts nothing: nobody asked for work.
    const left = this.inbox
      .splice(0)
      .filter((m) => !m.note)
      .map((m) => m.text);
    if (left.length) void this.start(left.join('\n\n')).catch(() => undefined);
    return outcome;
  }
}

/** Keeps the newest messages, starting at a user message so tool pairs are never split. */
function cap(messages: ModelMessage[], max: number): ModelMessage[] {
  if (messages.length <= max) return messages;
  let from = messages.length - max;
  while (from < messages.length && messages[from]!.role !== 'user') from++;
  return messages.slice(from);
}
