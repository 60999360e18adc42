/**
 * Token estimates and context-window sizes for the context builder. No tokenizer ships here (one
 * would fit one model family and weigh megabytes in the extension); the estimate is the chars/4
 * rule, refined where it is known to undercount: quotes, backslashes and control characters
 * (usually tokens of their own, and escaped on the wire) count twice, text outside ASCII counts
 * twice (accents, symbols) or as a token per character (CJK and other wide scripts). The context
 * builder calibrates it per model from reported usage (src/core/context/tokenCounter.ts).
 */
import type { ModelMessage, ModelToolSpec } from './types';

/**
 * Tokens a message costs beyond its text (role markers, separators) and a tool call beyond its name
 * and arguments (type, function and field markers). Set above OpenAI's few tokens, near what the
 * JSON framing of the request weighs, so that a step of many small messages is not undercounted.
 */
const PER_MESSAGE_OVERHEAD = 8;
const PER_TOOL_CALL_OVERHEAD = 12;

/** Quarter-token units of a text: 4 units are one token. */
function units(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += c === 0x22 || c === 0x5c || c < 0x20 ? 2 : 1;
    else n += c >= 0x2e80 ? 4 : 2;
  }
  return n;
}

export function estimateTokens(text: string): number {
  return Math.ceil(units(text) / 4);
}

/** Messages never change once built (a rewrite makes a new one): their estimates are kept. */
const messageCache = new WeakMap<ModelMessage, number>();

export function estimateMessageTokens(message: ModelMessage): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  let n = units(message.content ?? '');
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) n += units(call.name) + units(call.argumentsJson) + call.id.length + PER_TOOL_CALL_OVERHEAD * 4;
  }
  if (message.role === 'tool') n += message.toolCallId.length;
  const tokens = Math.ceil(n / 4) + PER_MESSAGE_OVERHEAD;
  messageCache.set(message, tokens);
  return tokens;
}

/** Estimated prompt tokens of a request: messages plus the tool schemas sent with them. */
export function estimatePromptTokens(messages: readonly ModelMessage[], tools: readonly ModelToolSpec[] = []): number {
  let total = 3; // the reply primer
  for (const m of messages) total += estimateMessageTokens(m);
  // Schemas are structure, not escaped text: plain chars/4, as servers that count the request's JSON do.
  for (const t of tools) total += Math.ceil((t.name.length + t.description.length + JSON.stringify(t.parameters).length) / 4) + 8;
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
