/**
 * The model client the orchestrator calls: streams one reply per step over any OpenAI-compatible
 * endpoint, with the package's single retry layer, usage/cost accounting, and a once-only clean
 * restart for streams that break mid-reply.
 */
import type OpenAI from 'openai';
import { lazyChunk } from '../base/lazyChunks';
import { resolveModelConfig, type Endpoint, type ModelClientConfig, type ResolvedModelConfig } from './config';
import type { ContextWindow } from './contextWindows';
import { ModelApiError } from './errors';
import { ModelLimits } from './modelLimits';
import { admitRequest, settleUsage, timedTurn } from './turnUsage';
import type { RetryPolicy } from './retryPolicy';
import { safeEmitter, withRecovery, withRetries, type RetryLoopOptions } from './retryLoop';
import { reasoningReplayFor } from './reasoningReplay';
import { NATIVE_TOOL_CALLS_HINT, readTextToolCalls } from './textToolCalls';
import { createSdkClient } from './sdkClient';
import { streamOneAttempt } from './streamAttempt';
import type { TurnAssembler } from './turnAssembler';
import type { ChatRequest, ModelMessage, ModelRole, ModelStreamEvent, ModelToolCall, ModelTurn } from './types';
import { withCutCallMarked } from './cutReply';
import { noteStopCause } from './stopCause';
import { maxTokensField, toFinishReason, toWireMessages, toWireTools } from './wire';

export interface CompleteRequest {
  /** The user prompt; or pass full `messages`. */
  prompt?: string;
  system?: string;
  messages?: readonly ModelMessage[];
  signal?: AbortSignal;
  onEvent?: (event: ModelStreamEvent) => void;
  maxOutputTokens?: number;
  temperature?: number;
  meter?: ChatRequest['meter'];
  /** Defaults to 'fast': summaries, observation insights, Q&A. */
  role?: ModelRole;
}

export interface ModelClientDeps {
  /** Jitter source, replaceable in tests. */
  random?: () => number;
  /** Backoff steps, shortened by tests that retry many times. */
  backoff?: Partial<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>>;
}

interface EndpointState {
  sdk: OpenAI;
  /** Set once the server rejected `stream_options` (older vLLM/llama.cpp builds): never send it again. */
  noStreamOptions: boolean;
  /** The user was told once which server option makes text tool calls native. */
  toldTextToolCalls: boolean;
}

export class ModelClient {
  readonly config: ResolvedModelConfig;
  private readonly states = new Map<ModelRole, EndpointState>();
  private readonly random: () => number;
  private readonly limits: ModelLimits;
  private readonly backoff: ModelClientDeps['backoff'];

  constructor(config: ModelClientConfig, deps: ModelClientDeps = {}) {
    this.config = resolveModelConfig(config);
    this.random = deps.random ?? Math.random;
    this.limits = new ModelLimits(this.config);
    this.backoff = deps.backoff;
  }

  modelFor(role: ModelRole): string {
    return this.config.endpoints[role].model;
  }

  /** The window in force and where it came from (modelLimits.ts); exact once resolveContextWindow() ran. */
  contextWindow(role: ModelRole): ContextWindow {
    return this.limits.window(role);
  }

  /** Asks the endpoint for the model's window (once per base URL and model), before a run's first request. */
  resolveContextWindow(role: ModelRole, signal?: AbortSignal): Promise<ContextWindow> {
    return this.limits.resolve(role, signal);
  }

  /**
   * Streams one reply, retrying transport faults (429/5xx/connection errors) with backoff. A stream
   * that breaks after output began rejects with StreamInterruptedError and is not retried here.
   */
  streamChat(req: ChatRequest): Promise<ModelTurn> {
    return withRetries(this.retryOptions(req), { attemptsUsed: 0 });
  }

  /**
   * streamChat, and when the stream breaks mid-reply: emit `restart` (consumers drop what they showed)
   * and run the step once more from scratch, continuing the step's retry budget (retryLoop.ts, the
   * loop every wire protocol shares). A second break rejects with kind 'interrupted'.
   */
  streamChatWithRecovery(req: ChatRequest): Promise<ModelTurn> {
    return timedTurn(withRecovery(this.retryOptions(req)));
  }

  /** One request per attempt; the shared loop decides about retries, backoff and the time budget. */
  private retryOptions(req: ChatRequest): RetryLoopOptions<ModelTurn> {
    const endpoint = this.config.endpoints[req.role];
    const state = this.stateFor(endpoint);
    const emit = safeEmitter(req.onEvent);
    return {
      policy: { ...this.config.retry, ...this.backoff },
      random: this.random,
      signal: req.signal,
      emit,
      attempt: async (attempt) => {
        // Every attempt (a retry too) is a request the budget may refuse before it goes out.
        admitRequest(req, this.limits.price(req.role));
        emit({ type: 'request-started', role: req.role, model: endpoint.model, attempt });
        for (let negotiated = false; ; negotiated = true) {
          try {
            const assembler = await streamOneAttempt({
              sdk: state.sdk,
              body: this.buildBody(req, endpoint, !state.noStreamOptions),
              classify: { baseUrl: endpoint.label, model: endpoint.model, origins: endpoint.origins },
              signal: req.signal,
              idleTimeoutMs: this.config.idleTimeoutMs,
              firstChunkTimeoutMs: this.config.firstChunkTimeoutMs,
              emit,
            });
            return this.finishTurn(req, endpoint, state, assembler, attempt, emit);
          } catch (raw) {
            // A protocol fallback, not a fault: resend at once without stream_options (usage is then estimated).
            if (negotiated || state.noStreamOptions || !rejectsStreamOptions(raw)) throw raw;
            state.noStreamOptions = true;
          }
        }
      },
    };
  }

  /** Plain text from the fast model (summaries, insights, Q&A): no tools, with stream recovery. */
  async complete(req: CompleteRequest): Promise<ModelTurn> {
    const messages: ModelMessage[] = [...(req.messages ?? [])];
    if (req.system) messages.unshift({ role: 'system', content: req.system });
    if (req.prompt !== undefined) messages.push({ role: 'user', content: req.prompt });
    if (!messages.length) throw new ModelApiError({ kind: 'bad-request', retryable: false, message: 'complete() needs a prompt or messages' });
    return this.streamChatWithRecovery({
      role: req.role ?? 'fast',
      messages,
      signal: req.signal,
      onEvent: req.onEvent,
      maxOutputTokens: req.maxOutputTokens,
      temperature: req.temperature,
      meter: req.meter,
    });
  }

  private stateFor(endpoint: Endpoint): EndpointState {
    let state = this.states.get(endpoint.role);
    if (!state) {
      state = { sdk: createSdkClient(endpoint, this.config), noStreamOptions: false, toldTextToolCalls: false };
      this.states.set(endpoint.role, state);
    }
    return state;
  }

  private buildBody(req: ChatRequest, endpoint: Endpoint, includeUsage: boolean) {
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: endpoint.model,
      messages: toWireMessages(req.messages, reasoningReplayFor(endpoint.baseUrl, endpoint.model)),
      stream: true,
    };
    if (includeUsage) body.stream_options = { include_usage: true };
    if (req.tools?.length) body.tools = toWireTools(req.tools);
    if (req.temperature !== undefined) body.temperature = req.temperature;
    if (req.maxOutputTokens !== undefined) body[maxTokensField(endpoint.model)] = req.maxOutputTokens;
    return body;
  }

  private finishTurn(
    req: ChatRequest,
    endpoint: Endpoint,
    state: EndpointState,
    a: TurnAssembler,
    attempts: number,
    emit: (e: ModelStreamEvent) => void,
  ): ModelTurn {
    // No finish reason, but the closing usage report came: the reply ended the ordinary way.
    const raw = a.rawFinishReason ?? (a.endedByUsage ? (a.startedToolCalls ? 'tool_calls' : 'stop') : undefined);
    noteStopCause(raw, emit);
    const assembled = withCutCallMarked(toFinishReason(raw), a.finishToolCalls(), a.lastStartedCallId);
    const invalid = assembled.invalid;
    let valid = assembled.valid;
    let text = a.text;
    const unread = [...a.unread];
    if (!valid.length && !invalid.length && req.tools?.length) {
      const fromText = this.toolCallsInText(text, req.tools, endpoint, state, emit);
      if (fromText && 'calls' in fromText) {
        valid = fromText.calls;
        text = fromText.text;
      } else if (fromText) unread.push(fromText.problem);
    }
    const { usage, cost } = settleUsage(
      req,
      endpoint.model,
      a.usage,
      { text: a.text + a.reasoning + a.refusal, calls: [...valid, ...invalid] },
      this.limits.price(req.role),
      emit,
    );
    return {
      role: req.role,
      model: endpoint.model,
      ...(a.responseModel ? { responseModel: a.responseModel } : {}),
      text,
      ...(a.reasoning ? { reasoning: a.reasoning } : {}),
      ...(a.refusal ? { refusal: a.refusal } : {}),
      ...(unread.length ? { unreadParts: unread } : {}),
      toolCalls: valid,
      invalidToolCalls: invalid,
      finishReason: valid.length && !a.startedToolCalls ? 'tool_calls' : toFinishReason(raw),
      rawFinishReason: a.rawFinishReason ?? '',
      usage,
      cost,
      attempts,
    };
  }

  /** Tool calls a server without its tool-call parser sent as text (textToolCalls.ts); the user hears once how to make them native. */
  private toolCallsInText(
    text: string,
    tools: NonNullable<ChatRequest['tools']>,
    endpoint: Endpoint,
    state: EndpointState,
    emit: (e: ModelStreamEvent) => void,
  ) {
    const found = readTextToolCalls(text, new Set(tools.map((t) => t.name)));
    if (!found) return undefined;
    if ('problem' in found) {
      const problem = `the reply holds tool-call markup (${found.format}) that was not run: ${found.problem}`;
      emit({
        type: 'notice',
        kind: 'text-tool-calls',
        message: `${problem}. The server sends tool calls as text; for native tool calls start it with ${NATIVE_TOOL_CALLS_HINT[found.format]}`,
      });
      return { problem };
    }
    if (!state.toldTextToolCalls) {
      state.toldTextToolCalls = true;
      emit({
        type: 'notice',
        kind: 'text-tool-calls',
        message: `${endpoint.label} sent tool calls as text (${found.format} format); PatchPilot read ${found.calls.length === 1 ? 'it as a tool call' : 'them as tool calls'}. For native tool calls start the server with ${NATIVE_TOOL_CALLS_HINT[found.format]}`,
      });
    }
    return found as { calls: ModelToolCall[]; text: string };
  }
}

function rejectsStreamOptions(err: unknown): boolean {
  const cause = err instanceof ModelApiError ? err.cause : err;
  return cause instanceof lazyChunk.openai().APIError && cause.status === 400 && /stream_options|include_usage/i.test(cause.message);
}
