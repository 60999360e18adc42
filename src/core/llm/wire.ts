/**
 * Translation between the client's types and the chat completions wire format.
 */
import type OpenAI from 'openai';
import type { FinishReason, ModelMessage, ModelToolSpec, ModelUsage } from './types';

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type WireTool = OpenAI.Chat.Completions.ChatCompletionTool;

export function toWireMessages(messages: readonly ModelMessage[]): WireMessage[] {
  return messages.map((m): WireMessage => {
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
          ...(m.toolCalls?.length
            ? {
                tool_calls: m.toolCalls.map((c) => ({
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

export function toFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
    case 'tool_calls':
    case 'length':
    case 'content_filter':
      return raw;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'other';
  }
}

/** Usage as the server reported it; undefined when the payload has no usable numbers. */
export function fromWireUsage(raw: OpenAI.CompletionUsage | null | undefined): ModelUsage | undefined {
  if (!raw || typeof raw.prompt_tokens !== 'number' || typeof raw.completion_tokens !== 'number') return undefined;
  // OpenAI-style `prompt_tokens_details.cached_tokens`; DeepSeek's `prompt_cache_hit_tokens`; Moonshot's top-level `cached_tokens`.
  const extra = raw as { prompt_cache_hit_tokens?: unknown; cached_tokens?: unknown };
  const cached = [raw.prompt_tokens_details?.cached_tokens, extra.prompt_cache_hit_tokens, extra.cached_tokens].find((n): n is number => typeof n === 'number' && n >= 0);
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  return {
    promptTokens: raw.prompt_tokens,
    completionTokens: raw.completion_tokens,
    ...(typeof cached === 'number' ? { cachedTokens: cached } : {}),
    ...(typeof reasoning === 'number' && reasoning > 0 ? { reasoningTokens: reasoning } : {}),
    estimated: false,
  };
}

/** Models that take `max_completion_tokens` and reject `max_tokens` (OpenAI reasoning models). */
export function maxTokensField(model: string): 'max_tokens' | 'max_completion_tokens' {
  const base = model.slice(model.lastIndexOf('/') + 1);
  return /^(o\d|gpt-5)/.test(base) ? 'max_completion_tokens' : 'max_tokens';
}
