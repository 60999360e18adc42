/**
 * The client's messages and tools in the Anthropic Messages API's shape: the system prompt at the
 * top level, tool calls as `tool_use` blocks, tool results as `tool_result` blocks in user messages
 * (consecutive ones merged, results before any text as the API requires), signed thinking blocks
 * first on their assistant message, unchanged. Prompt-cache breakpoints go on the stable prefix.
 * The mapping is deterministic, so the same history gives the same bytes and the cache hits.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { FinishReason, ModelMessage, ModelToolSpec, ModelUsage } from '../types';
import { stopCauseOf } from '../stopCause';

type MessageParam = Anthropic.Messages.MessageParam;
type BlockParam = Anthropic.Messages.ContentBlockParam;
type TextBlockParam = Anthropic.Messages.TextBlockParam;
type ToolParam = Anthropic.Messages.Tool;

const EPHEMERAL = { type: 'ephemeral' } as const;

export interface AnthropicPrompt {
  system: TextBlockParam[];
  messages: MessageParam[];
}

/** Messages -> system blocks and alternating user/assistant messages. */
export function toAnthropicPrompt(messages: readonly ModelMessage[]): AnthropicPrompt {
  const system: TextBlockParam[] = [];
  const out: { role: 'user' | 'assistant'; content: BlockParam[] }[] = [];
  let leading = true;
  const push = (role: 'user' | 'assistant', blocks: BlockParam[]) => {
    if (!blocks.length) return;
    const last = out.at(-1);
    // The API wants user and assistant to alternate: same-role neighbours become one message.
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system' && leading) {
      if (m.content) system.push({ type: 'text', text: m.content });
      continue;
    }
    leading = false;
    switch (m.role) {
      case 'system':
        // A notice the context builder placed mid-conversation: the API has no system role there.
        push('user', [text(`<system>\n${m.content}\n</system>`)]);
        break;
      case 'user':
        push('user', [text(m.content)]);
        break;
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content || '(no output)' }]);
        break;
      case 'assistant': {
        const blocks: BlockParam[] = [...(m.thinkingBlocks ?? []).map((b) => ({ ...b }))];
        if (m.content) blocks.push(text(m.content));
        for (const call of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.argumentsJson) });
        push('assistant', blocks);
        break;
      }
    }
  }
  for (const message of out) if (message.role === 'user') message.content = resultsFirst(message.content);
  return { system, messages: out };
}

/** In a user message, tool results come before anything else (the API rejects text before them). */
function resultsFirst(blocks: BlockParam[]): BlockParam[] {
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

/** The API rejects empty text blocks. */
function text(value: string): TextBlockParam {
  return { type: 'text', text: value.trim() ? value : '(empty)' };
}

/** The assembler only lets valid JSON objects through; a placeholder call's "{}" stays an empty input. */
function parseInput(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toAnthropicTools(tools: readonly ModelToolSpec[]): ToolParam[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: 'object', ...t.parameters } as ToolParam['input_schema'],
  }));
}

/**
 * Marks the stable prefix for the prompt cache, at most four breakpoints (the API's limit): the end
 * of the tool list, the end of the system prompt, the last message of the previous step (what the
 * previous request ended with, so this request reads the cache it wrote) and the last message (so
 * the next request reads this one's). The request objects are fresh copies: nothing is mutated
 * that a caller keeps.
 */
export function addCacheBreakpoints(prompt: AnthropicPrompt, tools: ToolParam[]): void {
  const lastTool = tools.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  const lastSystem = prompt.system.at(-1);
  if (lastSystem) lastSystem.cache_control = EPHEMERAL;
  const messages = prompt.messages;
  const last = messages.length - 1;
  // The previous step ended with the user message before the newest assistant reply.
  let previous = -1;
  for (let i = last - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant') {
      previous = i - 1;
      break;
    }
  }
  for (const index of new Set([previous, last])) {
    if (index >= 0) markLastBlock(messages[index]!);
  }
}

function markLastBlock(message: MessageParam): void {
  if (typeof message.content === 'string') {
    message.content = [{ type: 'text', text: message.content, cache_control: EPHEMERAL }];
    return;
  }
  // Thinking blocks cannot carry a breakpoint: take the last block that can.
  for (let i = message.content.length - 1; i >= 0; i--) {
    const block = message.content[i]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    message.content[i] = { ...block, cache_control: EPHEMERAL } as BlockParam;
    return;
  }
}

/**
 * True when the request ends inside a tool loop whose assistant turn carries no thinking block (a
 * history resumed from disk, a reply from before thinking was switched on): the API refuses
 * thinking there, so such a request is sent without it.
 */
export function toolLoopLacksThinking(messages: readonly ModelMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'tool') continue;
    if (m.role === 'assistant') return !!m.toolCalls?.length && !m.thinkingBlocks?.length;
    return false;
  }
  return false;
}

/** The stop reason in any spelling (stopCause.ts: one table for both protocols). */
export function fromAnthropicStopReason(raw: string | null | undefined): FinishReason {
  return stopCauseOf(raw).finishReason;
}

/** The usage fields of message_start and message_delta (message_delta's are cumulative). */
export interface AnthropicUsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/**
 * Anthropic's `input_tokens` excludes the cached part: the prompt is input + cache reads + cache
 * writes. Reads become cachedTokens (as OpenAI's cached_tokens), writes cacheWriteTokens.
 */
export function fromAnthropicUsage(u: AnthropicUsageFields): ModelUsage {
  const read = u.cache_read_input_tokens ?? 0;
  const written = u.cache_creation_input_tokens ?? 0;
  return {
    promptTokens: (u.input_tokens ?? 0) + read + written,
    completionTokens: u.output_tokens ?? 0,
    ...(read ? { cachedTokens: read } : {}),
    ...(written ? { cacheWriteTokens: written } : {}),
    estimated: false,
  };
}
