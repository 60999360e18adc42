/**
 * The model port over Anthropic's Messages API with `@anthropic-ai/sdk`: the same ChatModel,
 * ModelStreamEvents and ModelTurn as the chat-completions client, the same retry rules
 * (retryLoop.ts) and error kinds (classifyError.ts). Extended thinking when a budget is set, its
 * signed blocks carried back on the assistant message; prompt-cache breakpoints on the stable
 * prefix; usage with cache reads and writes, priced.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { lazyChunk } from '../../base/lazyChunks';
import { resolveModelConfig, type Endpoint, type ModelClientConfig, type ResolvedModelConfig } from '../config';
import type { ContextWindow } from '../contextWindows';
import { ModelLimits } from '../modelLimits';
import { ModelApiError, ModelConfigError } from '../errors';
import type { CompleteRequest } from '../modelClient';
import { admitRequest, settleUsage, timedTurn } from '../turnUsage';
import { withCutCallMarked } from '../cutReply';
import { noteStopCause } from '../stopCause';
import { acceptingJsonReplies } from '../jsonReply';
import { safeEmitter, withRecovery } from '../retryLoop';
import type { ChatRequest, ModelMessage, ModelRole, ModelStreamEvent, ModelTurn } from '../types';
import type { ChatModel } from '../../ports/chatModel';
import type { AnthropicTurnAssembler } from './anthropicAssembler';
import { streamAnthropicAttempt } from './anthropicAttempt';
import { messageAsSse } from './anthropicJsonReply';
import { addCacheBreakpoints, fromAnthropicStopReason, toAnthropicPrompt, toAnthropicTools, toolLoopLacksThinking } from './anthropicWire';

export interface AnthropicModelConfig extends Omit<ModelClientConfig, 'baseUrl' | 'apiKeyHeader' | 'apiVersion'> {
  /** Unset: the SDK's own default endpoint. A trailing `/v1` is dropped (the SDK adds it). */
  baseUrl?: string;
  /** Extended thinking for the agent's model: tokens it may think per reply (at least 1024). Unset: no thinking. */
  thinkingBudget?: number;
}

/** Room for the answer (text and tool calls) when the caller sets no output limit; thinking comes on top. */
const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;
/** The API's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1_024;

export class AnthropicChatModel implements ChatModel {
  readonly config: ResolvedModelConfig;
  readonly thinkingBudget: number | undefined;
  private readonly limits: ModelLimits;
  private readonly clients = new Map<ModelRole, Anthropic>();
  private readonly random: () => number;

  constructor(config: AnthropicModelConfig, deps: { random?: () => number } = {}) {
    if (config.thinkingBudget !== undefined && (!Number.isInteger(config.thinkingBudget) || config.thinkingBudget < MIN_THINKING_BUDGET)) {
      throw new ModelConfigError([
        `patchpilot.llm.anthropic.thinkingBudget must be an integer of at least ${MIN_THINKING_BUDGET} tokens, got ${config.thinkingBudget}`,
      ]);
    }
    const baseUrl = (config.baseUrl?.trim() || sdkDefaultBaseUrl()).replace(/\/+$/, '').replace(/\/v1$/, '');
    this.config = resolveModelConfig({
      ...config,
      baseUrl,
      ...(config.fastBaseUrl ? { fastBaseUrl: config.fastBaseUrl.replace(/\/+$/, '').replace(/\/v1$/, '') } : {}),
    });
    this.limits = new ModelLimits(this.config);
    this.thinkingBudget = config.thinkingBudget;
    this.random = deps.random ?? Math.random;
  }

  modelFor(role: ModelRole): string {
    return this.config.endpoints[role].model;
  }

  contextWindow(role: ModelRole): ContextWindow {
    // The user's setting, else the catalog (models.dev / genai-prices), else the fallback: modelLimits.ts.
    return this.limits.window(role);
  }

  streamChatWithRecovery(req: ChatRequest): Promise<ModelTurn> {
    const endpoint = this.config.endpoints[req.role];
    const sdk = this.clientFor(endpoint);
    const emit = safeEmitter(req.onEvent);
    const body = this.buildBody(req, endpoint);
    return timedTurn(
      withRecovery({
        policy: this.config.retry,
        random: this.random,
        signal: req.signal,
        emit,
        attempt: async (attempt) => {
          admitRequest(req, this.limits.price(req.role));
          emit({ type: 'request-started', role: req.role, model: endpoint.model, attempt });
          const assembler = await streamAnthropicAttempt({
            sdk,
            body,
            classify: { baseUrl: endpoint.label, model: endpoint.model, origins: endpoint.origins },
            signal: req.signal,
            idleTimeoutMs: this.config.idleTimeoutMs,
            firstChunkTimeoutMs: this.config.firstChunkTimeoutMs,
            emit,
          });
          return this.finishTurn(req, endpoint, assembler, attempt, emit);
        },
      }),
    );
  }

  /** Plain text from the fast model (summaries, insights, Q&A): no tools, no thinking. */
  complete(req: CompleteRequest): Promise<ModelTurn> {
    const messages: ModelMessage[] = [...(req.messages ?? [])];
    if (req.system) messages.unshift({ role: 'system', content: req.system });
    if (req.prompt !== undefined) messages.push({ role: 'user', content: req.prompt });
    if (!messages.length) return Promise.reject(new ModelApiError({ kind: 'bad-request', retryable: false, message: 'complete() needs a prompt or messages' }));
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

  /** The request body; the same messages give the same bytes, so the provider's cache hits. */
  buildBody(req: ChatRequest, endpoint: Endpoint): Anthropic.Messages.MessageCreateParamsStreaming {
    const prompt = toAnthropicPrompt(req.messages);
    const tools = toAnthropicTools(req.tools ?? []);
    addCacheBreakpoints(prompt, tools);
    const answerTokens = req.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    const budget = req.role === 'reasoning' && !toolLoopLacksThinking(req.messages) ? this.thinkingBudget : undefined;
    const body: Anthropic.Messages.MessageCreateParamsStreaming = {
      model: endpoint.model,
      max_tokens: budget ? budget + answerTokens : answerTokens,
      messages: prompt.messages,
      stream: true,
    };
    if (prompt.system.length) body.system = prompt.system;
    if (tools.length) body.tools = tools;
    if (budget) body.thinking = { type: 'enabled', budget_tokens: budget };
    // No temperature: the Messages API of this SDK version has none (and thinking accepted only the default).
    return body;
  }

  private clientFor(endpoint: Endpoint): Anthropic {
    let client = this.clients.get(endpoint.role);
    if (!client) {
      client = createAnthropicSdk(endpoint, this.config);
      this.clients.set(endpoint.role, client);
    }
    return client;
  }

  private finishTurn(req: ChatRequest, endpoint: Endpoint, a: AnthropicTurnAssembler, attempts: number, emit: (e: ModelStreamEvent) => void): ModelTurn {
    noteStopCause(a.stopReason, emit);
    const { valid, invalid } = withCutCallMarked(fromAnthropicStopReason(a.stopReason), a.finishToolCalls(), a.lastStartedCallId);
    const { usage, cost } = settleUsage(
      req,
      endpoint.model,
      a.usage,
      { text: a.text + a.reasoning, calls: [...valid, ...invalid] },
      this.limits.price(req.role),
      emit,
    );
    // A block this client cannot read is said, never dropped in silence.
    const unknown = a.unknownBlocks.length ? `\n[the reply contained content this client cannot read: ${[...new Set(a.unknownBlocks)].join(', ')}]` : '';
    return {
      role: req.role,
      model: endpoint.model,
      text: a.text + unknown,
      ...(a.reasoning ? { reasoning: a.reasoning } : {}),
      ...(a.thinkingBlocks.length ? { thinkingBlocks: a.thinkingBlocks } : {}),
      toolCalls: valid,
      invalidToolCalls: invalid,
      finishReason: fromAnthropicStopReason(a.stopReason),
      rawFinishReason: a.stopReason ?? '',
      ...(a.stopExplanation ? { stopExplanation: a.stopExplanation } : {}),
      usage,
      cost,
      attempts,
    };
  }
}

/**
 * The SDK client for one endpoint: its retries off (one retry layer), the key as `x-api-key` and
 * nothing else: no bearer header, and no key, token or profile read from the environment or disk
 * (a keyless local proxy sees no credentials at all).
 */
export function createAnthropicSdk(endpoint: Endpoint, config: ResolvedModelConfig): Anthropic {
  const headers: Record<string, string | null> = { Authorization: null, ...config.headers };
  if (endpoint.apiKey) headers['x-api-key'] = endpoint.apiKey;
  const { Anthropic: Client } = lazyChunk.anthropic();
  return new Client({
    baseURL: endpoint.baseUrl,
    // A credential passed in code keeps the SDK from looking for one; the header above replaces it.
    apiKey: 'unused',
    maxRetries: 0,
    timeout: config.firstChunkTimeoutMs + 5_000,
    defaultHeaders: headers,
    // A proxy that ignores `stream: true` answers one JSON message: read as the stream it stands for.
    fetch: acceptingJsonReplies(fetch, messageAsSse),
    logLevel: 'off',
    openTelemetry: false,
  });
}

/** The SDK's built-in endpoint (null: its default, not $ANTHROPIC_BASE_URL). */
function sdkDefaultBaseUrl(): string {
  const { Anthropic: Client } = lazyChunk.anthropic();
  return new Client({ apiKey: 'unused', baseURL: null, openTelemetry: false }).baseURL;
}
