import type { PatchPilotSettings } from '../config/settings';
import type { ModelMessage, ModelRole, ModelToolSpec, ModelTurn, ModelUsage } from '../llm/types';
import type { UsageMeter } from '../llm/usageMeter';
import type { ChatModel } from '../ports/chatModel';
import { headTail } from '../base/truncate';
import { cutOutput } from '../base/outputCut';
import type { OutputKeeper } from './outputKeeper';
import { promptBudgetFor, type PromptBudget } from './budget';
import { applyCompaction, dropOldestExchange, dropOldestSummary, planCompaction } from './compaction';
import { withoutSupersededNotes } from './goalNotes';
import type { Conversation } from './conversation';
import { summarizeJobs } from './summarizer';
import { PromptCounter, type TokenCalibration } from './tokenCounter';

/** Longest tool result that enters the context, whatever the budget. */
export const MAX_TOOL_RESULT_CHARS = 16_000;
/** Share of the budget one tool result may take when it enters. */
const TOOL_RESULT_SHARE = 0.25;
/** Messages are never cut below this by the last resort. */
const MIN_CUT_CHARS = 600;

/** What one compaction did: recorded in the history and shown as an event. */
export interface CompactionReport {
  beforeTokens: number;
  afterTokens: number;
  budgetTokens: number;
  /** Assistant and tool messages replaced by summaries. */
  summarizedMessages: number;
  summaries: string[];
  /** The summarizing model; undefined when nothing was summarized. */
  model?: string;
  /** Summaries that are plain digests (the model failed). */
  digests: number;
  droppedSummaries: number;
  droppedExchanges: number;
  /** Messages of the last round (or the goal) cut head and tail as the last resort. */
  cutMessages: number;
}

export interface PreparedRequest {
  messages: readonly ModelMessage[];
  /** Counted tokens (reported + calibrated estimate). */
  tokens: number;
  estimate: number;
  version: number;
}

export interface ContextManagerDeps {
  settings: Pick<PatchPilotSettings, 'context' | 'llm'>;
  model: Pick<ChatModel, 'modelFor' | 'contextWindow' | 'complete'>;
  calibration: TokenCalibration;
  meter?: UsageMeter;
  /** Each summary reply, for live usage reporting. */
  onTurn?(turn: ModelTurn): void;
  onCompacted(report: CompactionReport): void;
  warn(message: string): void;
}

/**
 * Keeps one run's conversation within the reasoning model's prompt budget. Before each request:
 * count (the last reported usage plus the calibrated estimate of what was added); when over, one
 * compaction: the work before the last round is summarized (compaction.ts), then, if still over,
 * the oldest summaries and then the oldest earlier exchanges are dropped, and as the last resort
 * the largest messages are cut head and tail. Never more than one summarization per step, so a
 * context that cannot shrink further never loops.
 */
export class ContextManager {
  budget: PromptBudget;
  private readonly counter: PromptCounter;
  private readonly reasoningModel: string;
  private warnedFixed = false;

  constructor(
    private readonly conversation: Conversation,
    private readonly tools: readonly ModelToolSpec[],
    private goal: ModelMessage,
    private readonly deps: ContextManagerDeps,
  ) {
    this.reasoningModel = deps.model.modelFor('reasoning');
    this.budget = promptBudgetFor(deps.settings, this.reasoningModel, deps.model.contextWindow('reasoning'));
    this.counter = new PromptCounter(this.reasoningModel, deps.calibration);
    conversation.toolResultLimit = toolResultLimit(this.budget.tokens, this.charsPerToken(this.reasoningModel));
  }

  /** Tokens of the conversation as it would be sent now. */
  count(): number {
    return this.counter.count(this.conversation.messages, this.tools, this.conversation.version);
  }

  /** The messages of the next request, compacted first when over the budget. */
  async prepare(signal: AbortSignal): Promise<PreparedRequest> {
    const budget = this.budget.tokens;
    let tokens = this.count();
    if (tokens > budget) {
      await this.compact(tokens, signal);
      tokens = this.count();
    }
    const messages = this.conversation.messages;
    return { messages, tokens, estimate: this.counter.estimate(messages, this.tools), version: this.conversation.version };
  }

  /**
   * The server refused a prompt of `sentTokens` as longer than the model's window, although it fit the
   * budget: the window is smaller than believed. The budget drops below what was sent and the
   * conversation is compacted at once. False when nothing could be made smaller (then retrying is useless).
   */
  async shrinkAfterOverflow(sentTokens: number, signal: AbortSignal): Promise<boolean> {
    const tokens = Math.max(1_000, Math.floor(Math.min(this.budget.tokens, sentTokens) * 0.75));
    this.budget = { tokens, source: `lowered to ${tokens} tokens after the server refused a prompt of about ${sentTokens} tokens as too long` };
    const before = this.count();
    await this.compact(before, signal);
    return this.count() < before;
  }

  /** The usage the server reported for a prepared request: calibrates the next count. */
  observe(sent: PreparedRequest, usage: ModelUsage): void {
    this.counter.observe(sent.estimate, sent.version, usage);
  }

  private async compact(before: number, signal: AbortSignal): Promise<void> {
    const budget = this.budget.tokens;
    const c = this.conversation;
    const report: CompactionReport = {
      beforeTokens: before,
      afterTokens: before,
      budgetTokens: budget,
      summarizedMessages: 0,
      summaries: [],
      digests: 0,
      droppedSummaries: 0,
      droppedExchanges: 0,
      cutMessages: 0,
    };

    const plan = planCompaction(c.messages);
    if (plan.jobs.length) {
      const role: ModelRole = this.deps.settings.llm.fastModel ? 'fast' : 'reasoning';
      const model = this.deps.model.modelFor(role);
      const result = await summarizeJobs(
        plan.jobs,
        {
          model: this.deps.model,
          role,
          inputBudgetTokens: promptBudgetFor(this.deps.settings, model, this.deps.model.contextWindow(role)).tokens,
          maxSummaryTokens: Math.min(1_200, Math.max(200, Math.floor(budget / 10))),
          charsPerToken: this.charsPerToken(model),
          meter: this.deps.meter,
          onTurn: this.deps.onTurn,
        },
        signal,
      );
      if (result.error) this.deps.warn(`the context summary fell back to a plain list of steps: ${result.error}`);
      c.replace(applyCompaction(c.messages, plan, result.summaries));
      Object.assign(report, {
        summarizedMessages: plan.jobs.reduce((n, j) => n + j.work.length, 0),
        summaries: result.summaries,
        model,
        digests: result.digests,
      });
    }
    for (let next = dropOldestSummary(c.messages); next && this.count() > budget; next = dropOldestSummary(c.messages)) {
      c.replace(next);
      report.droppedSummaries++;
    }
    // The earlier goals' state, mode and memory blocks a later goal states again go before any exchange does.
    const shed = this.count() > budget ? withoutSupersededNotes(c.messages) : undefined;
    if (shed) {
      const goalAt = c.messages.indexOf(this.goal);
      if (goalAt >= 0) this.goal = shed[goalAt]!;
      c.replace(shed);
    }
    for (let next = dropOldestExchange(c.messages, this.goal); next && this.count() > budget; next = dropOldestExchange(c.messages, this.goal)) {
      c.replace(next);
      report.droppedExchanges++;
    }
    if (this.count() > budget) report.cutMessages = this.cutLargest();
    report.afterTokens = this.count();
    this.deps.onCompacted(report);
  }

  /** The last resort: the largest messages (never the system prompt) cut head and tail until the count fits. */
  private cutLargest(): number {
    const budget = this.budget.tokens;
    const perToken = this.charsPerToken(this.reasoningModel);
    let cut = 0;
    for (let round = 0; round < 100 && this.count() > budget; round++) {
      const list = [...this.conversation.messages];
      let best = -1;
      let bestSize = MIN_CUT_CHARS;
      list.forEach((m, i) => {
        if (i > 0 && sizeOf(m) > bestSize) [best, bestSize] = [i, sizeOf(m)];
      });
      if (best < 0) {
        if (!this.warnedFixed)
          this.deps.warn(
            `the prompt (${this.count()} tokens) stays over the budget of ${budget} (${this.budget.source}): the system prompt and tool schemas alone take most of it`,
          );
        this.warnedFixed = true;
        break;
      }
      const over = Math.ceil((this.count() - budget) * perToken * 1.1) + 200;
      const shorter = cutMessage(list[best]!, Math.max(MIN_CUT_CHARS, bestSize - over), this.conversation.keeper);
      if (list[best] === this.goal) this.goal = shorter;
      list[best] = shorter;
      this.conversation.replace(list);
      cut++;
    }
    return cut;
  }

  private charsPerToken(model: string): number {
    return 4 / this.deps.calibration.ratio(model);
  }
}

/** The cap on one tool result entering a conversation with this budget. */
export function toolResultLimit(budgetTokens: number, charsPerToken: number): number {
  return Math.min(MAX_TOOL_RESULT_CHARS, Math.max(2_000, Math.floor(budgetTokens * TOOL_RESULT_SHARE * charsPerToken)));
}

function sizeOf(m: ModelMessage): number {
  if (m.role === 'assistant') return Math.max(m.content?.length ?? 0, ...(m.toolCalls ?? []).map((c) => c.argumentsJson.length));
  return m.content.length;
}

/**
 * The message with its largest part cut to `chars` (tool arguments become a short valid JSON note).
 * A result or message is cut like a tool result entering (base/outputCut.ts): whole lines, the
 * left-out ones named and kept for read_file, never dropped from the middle in silence.
 */
function cutMessage(m: ModelMessage, chars: number, keeper?: OutputKeeper): ModelMessage {
  const note = '[cut to fit the context budget]';
  if (m.role !== 'assistant') {
    const keptAt = keeper?.keep(m.content, m.role === 'tool' ? 'cut-result' : 'cut-message');
    return { ...m, content: `${note}\n${cutOutput(m.content, chars, { shape: 'headTail', keptAt }).text}` } as ModelMessage;
  }
  const calls = m.toolCalls ?? [];
  const largest = calls.reduce((best, c, i) => (c.argumentsJson.length > (calls[best]?.argumentsJson.length ?? -1) ? i : best), -1);
  if (largest >= 0 && calls[largest]!.argumentsJson.length >= (m.content?.length ?? 0)) {
    const original = calls[largest]!.argumentsJson.length;
    const toolCalls = calls.map((c, i) =>
      i === largest ? { ...c, argumentsJson: JSON.stringify({ note: `${note}: ${original} characters of arguments left out` }) } : c,
    );
    return { ...m, toolCalls };
  }
  return { ...m, content: `${note}\n${headTail(m.content ?? '', chars).text}` };
}
