/**
 * Token estimates and context-window sizes for the context builder. The estimate is the common
 * chars/4 rule: no tokenizer ships here, and the budget keeps a safety margin for the error.
 */
import type { ModelMessage, ModelToolSpec } from './types';

/** Tokens a message costs beyond its text (role markers, separators), roughly as OpenAI counts. */
const PER_MESSAGE_OVERHEAD = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessageTokens(message: ModelMessage): number {
  let chars = message.content?.length ?? 0;
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.argumentsJson.length + call.id.length;
  }
  if (message.role === 'tool') chars += message.toolCallId.length;
  return Math.ceil(chars / 4) + PER_MESSAGE_OVERHEAD;
}

/** Estimated prompt tokens of a request: messages plus the tool schemas sent with them. */
export function estimatePromptTokens(messages: readonly ModelMessage[], tools: readonly ModelToolSpec[] = []): number {
  let total = 3; // the reply primer
  for (const m of messages) total += estimateMessageTokens(m);
  for (const t of tools) total += estimateTokens(t.name + t.description + JSON.stringify(t.parameters)) + 8;
  return total;
}

/** Context windows (prompt + output tokens) of well-known models; override per model in settings. */
export const defaultContextWindows: Readonly<Record<string, number>> = {
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
  'gpt-4.1-nano': 1_047_576,
  'gpt-5': 400_000,
  'gpt-5-mini': 400_000,
  'gpt-5-nano': 400_000,
  o3: 200_000,
  'o4-mini': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-opus-4': 200_000,
  'llama3.1': 128_000,
  'qwen2.5-coder': 32_768,
};

/**
 * Used for unknown models. Deliberately small: local servers often run with a short context
 * (Ollama's default is a few thousand tokens), and overflowing is worse than summarizing early.
 */
export const FALLBACK_CONTEXT_WINDOW = 8_192;

export interface ContextWindow {
  tokens: number;
  /** False when the model was not in the table and the fallback was used. */
  known: boolean;
}

/**
 * The context window of `model`: exact name, then without a router prefix (`openai/gpt-4o`), a date
 * suffix (`-2024-08-06`) or an Ollama tag (`llama3.1:8b`).
 */
export function contextWindowFor(model: string, overrides: Readonly<Record<string, number>> = {}): ContextWindow {
  const tokens = lookupByModelName({ ...defaultContextWindows, ...overrides }, model);
  return tokens === undefined ? { tokens: FALLBACK_CONTEXT_WINDOW, known: false } : { tokens, known: true };
}

/** A per-model number (a window, a budget) by the same name rules as contextWindowFor. */
export function lookupByModelName(table: Readonly<Record<string, number>>, model: string): number | undefined {
  const base = model.slice(model.lastIndexOf('/') + 1);
  const names = [model, base, base.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, ''), base.replace(/:.*$/, '')];
  for (const name of names) {
    const tokens = Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
    if (typeof tokens === 'number' && tokens > 0) return tokens;
  }
  return undefined;
}
