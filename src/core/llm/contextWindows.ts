/**
 * Token estimates and context-window sizes for the context builder. No tokenizer ships here (one
 * would fit one model family and weigh megabytes in the extension); the estimate is the chars/4
 * rule, refined where it is known to undercount: quotes, backslashes and control characters
 * (usually tokens of their own, and escaped on the wire) count twice, text outside ASCII counts
 * twice (accents, symbols) or as a token per character (CJK and other wide scripts). The context
 * builder calibrates it per model from reported usage (src/core/context/tokenCounter.ts).
 */
import { lookupByName } from './modelNames';
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

/**
 * Used when neither the user's setting, the endpoint nor the catalog knows the model. Deliberately
 * small: local servers often run with a short context, and overflowing is worse than summarizing early.
 */
export const FALLBACK_CONTEXT_WINDOW = 8_192;

/** Where a window came from, in order of precedence. */
export type WindowSource = 'setting' | 'endpoint' | 'catalog' | 'fallback';

export interface ContextWindow {
  tokens: number;
  /** False when nothing knew the model and the fallback was used. */
  known: boolean;
  source?: WindowSource;
  /** Said after "from": `your setting`, `the endpoint's /v1/models`, `the catalog`. */
  from?: string;
  /** Which setting, field or catalog entry: `patchpilot.llm.contextWindows`, `max_model_len`, `models.dev openai/gpt-4o`. */
  detail?: string;
  /** The most the model writes in one reply, when the endpoint or the catalog says. */
  maxOutputTokens?: number;
  /** Something the user should know about this window (a server default that is likely too small). */
  warning?: string;
}

/** What the endpoint said about a model (endpointInfo.ts), or the catalog (modelCatalog.ts). */
export interface DiscoveredLimits {
  contextWindow?: number;
  maxOutputTokens?: number;
  from: string;
  detail?: string;
  warning?: string;
}

/**
 * The window in force for `model`: the user's `patchpilot.llm.contextWindows` (same name rules as
 * modelNames.ts), then what the endpoint reported, then the catalog, then the fallback.
 */
export function resolveContextWindow(
  model: string,
  overrides: Readonly<Record<string, number>>,
  endpoint?: DiscoveredLimits,
  catalog?: DiscoveredLimits,
): ContextWindow {
  const maxOutputTokens = endpoint?.maxOutputTokens ?? catalog?.maxOutputTokens;
  const output = maxOutputTokens ? { maxOutputTokens } : {};
  const configured = lookupByModelName(overrides, model);
  if (configured !== undefined)
    return { tokens: configured, known: true, source: 'setting', from: 'your setting', detail: 'patchpilot.llm.contextWindows', ...output };
  const said = (d: DiscoveredLimits) => ({ from: d.from, ...(d.detail ? { detail: d.detail } : {}), ...(d.warning ? { warning: d.warning } : {}) });
  if (endpoint?.contextWindow) return { tokens: endpoint.contextWindow, known: true, source: 'endpoint', ...said(endpoint), ...output };
  if (catalog?.contextWindow) return { tokens: catalog.contextWindow, known: true, source: 'catalog', ...said(catalog), ...output };
  return { tokens: FALLBACK_CONTEXT_WINDOW, known: false, source: 'fallback', ...output };
}

/**
 * The run header's words for the window, in plain words a newcomer reads (the CLI's first line and the
 * chat's run header share them): "context: 32,768 tokens (from the endpoint's /v1/models)"; when nothing
 * says, the guess and where to set the real one, named as the Settings editor shows it and by its key
 * (the CLI reads the same key from its settings.json).
 */
export function describeContextWindow(w: ContextWindow): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (!w.known)
    return `context: ${n(w.tokens)} tokens (the endpoint did not say; set it in Settings › PatchPilot › Context Windows, patchpilot.llm.contextWindows)`;
  return `context: ${n(w.tokens)} tokens${w.from ? ` (from ${w.from})` : ''}`;
}

/** A per-model number (a window, a budget) by the name rules of modelNames.ts. */
export function lookupByModelName(table: Readonly<Record<string, number>>, model: string): number | undefined {
  const tokens = lookupByName(table, model);
  return typeof tokens === 'number' && tokens > 0 ? tokens : undefined;
}
