/**
 * The model client's own vocabulary. The orchestrator and the context builder speak these types,
 * never the `openai` SDK's, so a change of SDK (or a second wire protocol) stays inside src/core/llm.
 */

/** Which configured model serves a request: the agent loop's model, or the cheap helper model. */
export type ModelRole = 'reasoning' | 'fast';

/** A tool call as the model asked for it. `argumentsJson` is complete, parseable JSON text. */
export interface ModelToolCall {
  id: string;
  name: string;
  argumentsJson: string;
  /**
   * Fields the server put on the call beside id, type and function (Gemini's `extra_content` with its
   * thought signature): sent back on the call unchanged, as the server requires on the next request.
   */
  providerFields?: Record<string, unknown>;
}

export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  /**
   * `summary`: a note the context builder wrote in place of earlier work (src/core/context/compaction.ts).
   * Never a user message: a summary is model-written data, and the user's role would lend it their authority.
   * `reasoning`: what the model thought before this message; sent back only where the provider needs it (reasoningReplay.ts).
   * `thinkingBlocks`: the provider's signed reasoning of this reply, sent back unchanged (Anthropic requires it within a tool loop).
   */
  | {
      role: 'assistant';
      content: string | null;
      toolCalls?: readonly ModelToolCall[];
      summary?: boolean;
      thinkingBlocks?: readonly ThinkingBlock[];
      reasoning?: string;
    }
  | { role: 'tool'; toolCallId: string; content: string };

/**
 * A reasoning block as a provider returned it, opaque to everything but its own client: Anthropic's
 * `thinking` (text plus the signature that proves it unmodified) and `redacted_thinking` (encrypted).
 */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** A function tool offered to the model; `parameters` is a JSON Schema object. */
export interface ModelToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's prompt cache (included in promptTokens). */
  cachedTokens?: number;
  /** Prompt tokens written to the provider's prompt cache (Anthropic's cache writes; included in promptTokens). */
  cacheWriteTokens?: number;
  /** Hidden reasoning tokens (included in completionTokens), when the server reports them. */
  reasoningTokens?: number;
  /** True when the server sent no usage and the figures are our chars/4 estimate. */
  estimated: boolean;
}

/** Why the model stopped; `other` keeps unknown provider values visible instead of guessing. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/** A tool call whose arguments were not valid JSON (a model mistake, not a transport fault). */
export interface InvalidToolCall {
  id: string;
  name: string;
  argumentsJson: string;
  problem: string;
}

/** One finished model reply. Only complete, valid tool calls are in `toolCalls`. */
export interface ModelTurn {
  role: ModelRole;
  model: string;
  /** The model the server says answered (an alias resolved, a router's choice), when it names one. */
  responseModel?: string;
  text: string;
  /** Reasoning in any dialect (`reasoning_content`, `reasoning`, `reasoning_details`, thinking parts, `<think>`). */
  reasoning?: string;
  /** Signed reasoning blocks to carry back on this reply's assistant message (ModelMessage.thinkingBlocks). */
  thinkingBlocks?: ThinkingBlock[];
  /** What the model sent as a refusal (`delta.refusal`, refusal content parts). */
  refusal?: string;
  /**
   * Parts of the reply the client could not read (an unknown content shape, tool-call markup it could
   * not resolve): shown to the user, and told to the model at its next step, never silently dropped.
   */
  unreadParts?: string[];
  toolCalls: ModelToolCall[];
  /** Tool calls the model sent with broken arguments; the orchestrator reports them back, never runs them. */
  invalidToolCalls: InvalidToolCall[];
  finishReason: FinishReason;
  /** The provider's raw finish_reason, for logs. */
  rawFinishReason: string;
  /** The provider's own words on why it stopped the reply (Anthropic's `stop_details.explanation` on a refusal). */
  stopExplanation?: string;
  usage: ModelUsage;
  /** USD; undefined when the model has no known price (then show tokens only). */
  cost?: number;
  /** Requests sent for this turn, including retried ones. */
  attempts: number;
  /** Milliseconds from the first request to the whole reply, retries included. */
  durationMs?: number;
}

export type StreamNoticeKind = 'unread-content' | 'text-tool-calls' | 'stop-reason';

/** Typed events while a reply streams. Consumers render text as it comes and drop it on `restart`. */
export type ModelStreamEvent =
  | { type: 'request-started'; role: ModelRole; model: string; attempt: number }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /** The text streamed so far in this reply was reasoning after all (an unmarked `<think>` block): drop it as text. */
  | { type: 'text-became-reasoning'; text: string }
  | { type: 'refusal-delta'; text: string }
  /** Something the user should know about this reply (an unreadable part, tool calls read from text). */
  | { type: 'notice'; kind: StreamNoticeKind; message: string }
  | { type: 'tool-call-started'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; id: string; argumentsDelta: string }
  | { type: 'usage'; usage: ModelUsage; cost?: number }
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string; kind: string }
  /** The stream broke after output began; everything streamed so far is void, a fresh request follows. */
  | { type: 'restart'; reason: string; discardedText: string };

export interface ChatRequest {
  role: ModelRole;
  messages: readonly ModelMessage[];
  tools?: readonly ModelToolSpec[];
  /** The run's AbortSignal: aborts the request and any backoff at once. */
  signal?: AbortSignal;
  onEvent?: (event: ModelStreamEvent) => void;
  temperature?: number;
  maxOutputTokens?: number;
  /** Accumulates usage and cost for the run (one meter per run). */
  meter?: import('./usageMeter').UsageMeter;
}

// The rest of the model vocabulary a port may name (ports import only `<domain>/types`).
export type { CompleteRequest } from './modelClient';
export type { ContextWindow } from './contextWindows';
