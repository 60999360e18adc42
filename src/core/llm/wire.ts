/**
 * Translation between the client's types and the chat completions wire format.
 */
import type OpenAI from 'openai';
import type { FinishReason, ModelMessage, ModelToolSpec, ModelUsage } from './types';
import type { ReasoningReplay } from './reasoningReplay';
import { stopCauseOf } from './stopCause';

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type WireTool = OpenAI.Chat.Completions.ChatCompletionTool;

/**
 * `replay`: whether assistant messages of the current tool loop (after the last user message) carry
 * their reasoning back as `reasoning_content` (reasoningReplay.ts says for which providers).
 */
export function toWireMessages(messages: readonly ModelMessage[], replay: ReasoningReplay = 'never'): WireMessage[] {
  const loopStart = replay === 'never' ? Infinity : messages.map((m) => m.role).lastIndexOf('user') + 1;
  return messages.map((m, i): WireMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      case 'assistant':
        return {
          role: 'assistant',
          content: m.content,
          ...(i >= loopStart && m.reasoning ? { reasoning_content: m.reasoning } : {}),
          ...(m.toolCalls?.length
            ? {
                tool_calls: m.toolCalls.map((c) => ({
                  ...c.providerFields,
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: c.argumentsJson },
                })),
              }
            : {}),
        };
    }
  });
}

export function toWireTools(tools: readonly ModelToolSpec[]): WireTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/** The finish reason in any provider's spelling (stopCause.ts). */
export function toFinishReason(raw: string | null | undefined): FinishReason {
  return stopCauseOf(raw).finishReason;
}

/** Usage as the server reported it; undefined when the payload has no usable numbers. */
export function fromWireUsage(raw: OpenAI.CompletionUsage | null | undefined): ModelUsage | undefined {
  if (!raw || typeof raw.prompt_tokens !== 'number' || typeof raw.completion_tokens !== 'number') return undefined;
  const extra = raw as unknown as Record<string, unknown>;
  const details = (raw.prompt_tokens_details ?? {}) as Record<string, unknown>;
  // Cache reads: OpenAI-style `prompt_tokens_details.cached_tokens`; DeepSeek's `prompt_cache_hit_tokens`;
  // Moonshot's top-level `cached_tokens`; an Anthropic model behind a proxy (LiteLLM) `cache_read_input_tokens`.
  const cached = firstCount(details.cached_tokens, extra.prompt_cache_hit_tokens, extra.cached_tokens, extra.cache_read_input_tokens);
  // Cache writes: OpenRouter's `prompt_tokens_details.cache_write_tokens`; Qwen's there as `cache_creation_input_tokens`; LiteLLM's at the top.
  const written = firstCount(details.cache_write_tokens, details.cache_creation_input_tokens, extra.cache_creation_input_tokens);
  const reasoning = firstCount(raw.completion_tokens_details?.reasoning_tokens);
  return {
    promptTokens: raw.prompt_tokens,
    completionTokens: raw.completion_tokens + reasoningOutsideCompletion(raw, reasoning),
    ...(cached !== undefined ? { cachedTokens: cached } : {}),
    ...(written ? { cacheWriteTokens: written } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
    estimated: false,
  };
}

function firstCount(...values: unknown[]): number | undefined {
  return values.find((n): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0);
}

/**
 * Reasoning tokens most servers count inside `completion_tokens`; xAI counts them beside it, and
 * its `total_tokens` says so (prompt + completion + reasoning). Those are output tokens, billed as
 * such: they are added, decided by the server's own total, never by the provider's name.
 */
function reasoningOutsideCompletion(raw: OpenAI.CompletionUsage, reasoning: number | undefined): number {
  if (!reasoning || typeof raw.total_tokens !== 'number') return 0;
  const inside = raw.prompt_tokens + raw.completion_tokens;
  return raw.total_tokens !== inside && raw.total_tokens === inside + reasoning ? reasoning : 0;
}

/**
 * Usage reported more than once in one reply (a usage event per chunk, a late summary chunk): each
 * count keeps the largest figure seen. Counts only grow within a reply, so a later 0 (a proxy's
 * placeholder, a final chunk that reports output only) never overwrites a real count.
 */
export function mergeUsage(earlier: ModelUsage | undefined, later: ModelUsage): ModelUsage {
  if (!earlier) return later;
  const most = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
  const merged: ModelUsage = {
    promptTokens: Math.max(earlier.promptTokens, later.promptTokens),
    completionTokens: Math.max(earlier.completionTokens, later.completionTokens),
    estimated: earlier.estimated && later.estimated,
  };
  for (const k of ['cachedTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    const v = most(earlier[k], later[k]);
    if (v !== undefined) merged[k] = v;
  }
  return merged;
}

/** Models that take `max_completion_tokens` and reject `max_tokens` (OpenAI reasoning models). */
export function maxTokensField(model: string): 'max_tokens' | 'max_completion_tokens' {
  const base = model.slice(model.lastIndexOf('/') + 1);
  return /^(o\d|gpt-5)/.test(base) ? 'max_completion_tokens' : 'max_tokens';
}
