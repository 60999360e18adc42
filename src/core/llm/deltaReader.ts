/**
 * Reads one streamed `delta` in every dialect the OpenAI-compatible servers speak, in order:
 * - reasoning: `reasoning_content` (DeepSeek, vLLM, xAI, Kimi, GLM, LM Studio), `reasoning` (OpenRouter,
 *   Groq's gpt-oss, Ollama), `thinking` (proxies passing Ollama's name through), `reasoning_details`
 *   (OpenRouter's typed list, used when no plain string came);
 * - `content` as a string, or as typed parts (Mistral's Magistral: `thinking` parts holding text parts,
 *   `text` parts; `refusal` parts);
 * - `refusal` (OpenAI's structured refusal).
 * What it cannot read comes back in `unread` with a short description, so nothing is dropped silently.
 */

export type DeltaPiece =
  | { kind: 'reasoning'; text: string }
  /** Plain `content` text (may hold inline `<think>` tags: the caller splits it). */
  | { kind: 'content'; text: string }
  /** Text from a typed part: never holds tags to split. */
  | { kind: 'text'; text: string }
  | { kind: 'refusal'; text: string };

export interface ReadDelta {
  pieces: DeltaPiece[];
  unread: string[];
}

/** Delta fields that carry no reply content (or are read elsewhere: tool calls). */
const KNOWN_FIELDS = new Set([
  'role',
  'content',
  'tool_calls',
  'function_call',
  'refusal',
  'reasoning',
  'reasoning_content',
  'reasoning_details',
  'audio',
  'annotations',
  'name',
  'tool_call_id',
  'channel',
  'recipient',
  'thinking',
  // LiteLLM copies: the same reasoning as reasoning_content, and its own metadata.
  'thinking_blocks',
  'provider_specific_fields',
  // Perplexity and search-grounded models: sources of the answer, not the answer.
  'citations',
  'search_results',
]);

export function readDelta(delta: Record<string, unknown>): ReadDelta {
  const pieces: DeltaPiece[] = [];
  const unread: string[] = [];
  const plain = [delta.reasoning_content, delta.reasoning, delta.thinking].find((v) => typeof v === 'string' && v !== '') as string | undefined;
  if (plain) pieces.push({ kind: 'reasoning', text: plain });
  else if (Array.isArray(delta.reasoning_details)) readReasoningDetails(delta.reasoning_details, pieces, unread);
  else if (delta.reasoning && typeof delta.reasoning === 'object') readPart(delta.reasoning, pieces, unread, 'reasoning');

  const content = delta.content;
  if (typeof content === 'string') {
    if (content) pieces.push({ kind: 'content', text: content });
  } else if (Array.isArray(content)) {
    for (const part of content) readPart(part, pieces, unread, 'content');
  } else if (content && typeof content === 'object') {
    readPart(content, pieces, unread, 'content');
  } else if (content !== undefined && content !== null) {
    unread.push(`content of type ${typeof content}`);
  }

  if (typeof delta.refusal === 'string' && delta.refusal) pieces.push({ kind: 'refusal', text: delta.refusal });
  for (const [key, value] of Object.entries(delta)) {
    if (KNOWN_FIELDS.has(key) || /(^|_)(id|signature|index|type)$/.test(key)) continue;
    if ((typeof value === 'string' && value.trim()) || (Array.isArray(value) && value.length)) unread.push(`a field "${key}" (${preview(value)})`);
  }
  return { pieces, unread };
}

/** OpenRouter: `{type: 'reasoning.text', text}`, `{type: 'reasoning.summary', summary}`, `{type: 'reasoning.encrypted', data}`. */
function readReasoningDetails(details: unknown[], pieces: DeltaPiece[], unread: string[]): void {
  for (const d of details) {
    const item = d as { type?: unknown; text?: unknown; summary?: unknown };
    if (typeof item?.text === 'string') pushPiece(pieces, 'reasoning', item.text);
    else if (typeof item?.summary === 'string') pushPiece(pieces, 'reasoning', item.summary);
    // Encrypted reasoning is opaque by design: there is nothing to show, and nothing is lost.
    else if (item?.type === 'reasoning.encrypted') continue;
    else unread.push(`a reasoning detail of type ${JSON.stringify(item?.type ?? null)}`);
  }
}

/** One typed part; `as` is what an untyped text inside it counts as. */
function readPart(part: unknown, pieces: DeltaPiece[], unread: string[], as: 'content' | 'reasoning'): void {
  if (typeof part === 'string') return pushPiece(pieces, as === 'content' ? 'text' : 'reasoning', part);
  const p = part as { type?: unknown; text?: unknown; thinking?: unknown; refusal?: unknown; reasoning?: unknown; summary?: unknown };
  if (!p || typeof p !== 'object') return void unread.push(`a content part ${preview(part)}`);
  switch (p.type) {
    case 'thinking':
    case 'reasoning': {
      const inner = p.thinking ?? p.reasoning ?? p.text ?? p.summary;
      if (typeof inner === 'string') return pushPiece(pieces, 'reasoning', inner);
      if (Array.isArray(inner)) {
        for (const x of inner) readPart(x, pieces, unread, 'reasoning');
        return;
      }
      return void unread.push(`a ${String(p.type)} part without text`);
    }
    case 'refusal':
      if (typeof p.refusal === 'string') return pushPiece(pieces, 'refusal', p.refusal);
      break;
    default:
      break;
  }
  // `text` parts, and any other part that carries text: the text is kept (as what the part sits in).
  if (typeof p.text === 'string') return pushPiece(pieces, as === 'content' ? 'text' : 'reasoning', p.text);
  unread.push(`a content part of type ${JSON.stringify(p.type ?? null)}`);
}

function pushPiece(pieces: DeltaPiece[], kind: DeltaPiece['kind'], text: string): void {
  if (text) pieces.push({ kind, text } as DeltaPiece);
}

function preview(value: unknown): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
