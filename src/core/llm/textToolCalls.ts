/**
 * Tool calls a server streamed as text because it runs without its tool-call parser (vLLM without
 * `--enable-auto-tool-choice --tool-call-parser`, llama.cpp without `--jinja`). The model's chat
 * template still writes them, in one of three forms:
 * - Hermes / Qwen: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` (one block per call);
 * - Mistral: `[TOOL_CALLS][{"name": ..., "arguments": {...}}]`, or the newer `[TOOL_CALLS]name[ARGS]{...}`;
 * - Llama 3.x: the whole reply is `{"name": ..., "parameters": {...}}` (optionally after `<|python_tag|>`).
 * A call runs only when every call of the reply parses completely and names an offered tool; markup
 * that is there but cannot be resolved is reported (`problem`), never half executed.
 */
import type { ModelToolCall } from './types';

export type TextToolCallFormat = 'hermes' | 'mistral' | 'llama-json';

export type TextToolCalls = { format: TextToolCallFormat; calls: ModelToolCall[]; text: string } | { format: TextToolCallFormat; problem: string };

/** The server option that makes this format native (told to the user once). */
export const NATIVE_TOOL_CALLS_HINT: Record<TextToolCallFormat, string> = {
  hermes: 'vLLM: --enable-auto-tool-choice --tool-call-parser hermes; llama.cpp: --jinja',
  mistral: 'vLLM: --enable-auto-tool-choice --tool-call-parser mistral; llama.cpp: --jinja',
  'llama-json': 'vLLM: --enable-auto-tool-choice --tool-call-parser llama3_json; llama.cpp: --jinja',
};

/** Undefined when the text holds no tool-call markup (an ordinary answer). */
export function readTextToolCalls(text: string, tools: ReadonlySet<string>): TextToolCalls | undefined {
  if (!tools.size) return undefined;
  if (text.includes('<tool_call>')) return hermes(text, tools);
  if (text.includes('[TOOL_CALLS]')) return mistral(text, tools);
  return llamaJson(text, tools);
}

function hermes(text: string, tools: ReadonlySet<string>): TextToolCalls {
  const blocks = [...text.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>/g)];
  const opened = text.split('<tool_call>').length - 1;
  if (blocks.length !== opened) return { format: 'hermes', problem: 'a <tool_call> block is not closed (the reply may have been cut off)' };
  const raw: unknown[] = [];
  for (const b of blocks) {
    const parsed = parseJson(b[1]!.trim());
    if (parsed === undefined) return { format: 'hermes', problem: `a <tool_call> block is not valid JSON: ${brief(b[1]!)}` };
    raw.push(parsed);
  }
  const rest = text.replace(/<tool_call>[\s\S]*?<\/tool_call>/g, '').trim();
  return finish('hermes', raw, tools, rest);
}

function mistral(text: string, tools: ReadonlySet<string>): TextToolCalls {
  const at = text.indexOf('[TOOL_CALLS]');
  const before = text.slice(0, at).trim();
  const body = text.slice(at + '[TOOL_CALLS]'.length).trimStart();
  if (body.startsWith('[')) {
    const end = jsonEnd(body, 0);
    const parsed = end > 0 ? parseJson(body.slice(0, end)) : undefined;
    if (!Array.isArray(parsed)) return { format: 'mistral', problem: `the [TOOL_CALLS] list is not complete JSON: ${brief(body)}` };
    return finish('mistral', parsed, tools, `${before} ${body.slice(end)}`.trim());
  }
  // Newer templates: name[ARGS]{...}, optionally name[CALL_ID]id[ARGS]{...}, several joined by [TOOL_CALLS].
  const raw: unknown[] = [];
  let rest = text.slice(at);
  const one = /^\s*(?:\[TOOL_CALLS\])?\s*([A-Za-z0-9_.-]+)\s*(?:\[CALL_ID\]\s*([A-Za-z0-9_-]+)\s*)?\[ARGS\]/;
  for (let m = one.exec(rest); m; m = one.exec(rest)) {
    const start = m[0].length;
    const end = jsonEnd(rest, start);
    const args = end > 0 ? parseJson(rest.slice(start, end)) : undefined;
    if (args === undefined) return { format: 'mistral', problem: `the arguments of ${m[1]} are not complete JSON: ${brief(rest.slice(start))}` };
    raw.push({ name: m[1], arguments: args, ...(m[2] ? { id: m[2] } : {}) });
    rest = rest.slice(end);
  }
  if (!raw.length) return { format: 'mistral', problem: `[TOOL_CALLS] is followed by no call this client can read: ${brief(body)}` };
  return finish('mistral', raw, tools, `${before} ${rest}`.trim());
}

/** Only the whole reply, and only when every item names an offered tool: a JSON answer stays an answer. */
function llamaJson(text: string, tools: ReadonlySet<string>): TextToolCalls | undefined {
  const body = text
    .trim()
    .replace(/^<\|python_tag\|>/, '')
    .trim();
  if (!body.startsWith('{') && !body.startsWith('[')) return undefined;
  const parsed = parseJson(body);
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const looksLikeCalls =
    items.length > 0 && items.every((i) => isObject(i) && typeof i.name === 'string' && tools.has(i.name) && (isObject(i.parameters) || isObject(i.arguments)));
  if (!looksLikeCalls) return undefined;
  return finish('llama-json', items, tools, '');
}

function finish(format: TextToolCallFormat, raw: unknown[], tools: ReadonlySet<string>, text: string): TextToolCalls {
  const calls: ModelToolCall[] = [];
  for (const [i, item] of raw.entries()) {
    if (!isObject(item) || typeof item.name !== 'string') return { format, problem: `call ${i + 1} has no tool name: ${brief(JSON.stringify(item))}` };
    if (!tools.has(item.name)) return { format, problem: `call ${i + 1} names a tool that is not offered: "${item.name}"` };
    let args: unknown = item.arguments ?? item.parameters ?? {};
    if (typeof args === 'string') args = parseJson(args);
    if (!isObject(args)) return { format, problem: `the arguments of ${item.name} are not a JSON object` };
    const id = typeof item.id === 'string' && item.id ? item.id : `call_text_${i}_${Math.random().toString(36).slice(2, 10)}`;
    calls.push({ id, name: item.name, argumentsJson: JSON.stringify(args) });
  }
  return { format, calls, text };
}

/** Index just past the JSON value starting at `from` (braces and brackets balanced, strings respected); -1 if it never closes. */
function jsonEnd(s: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && !/\s/.test(ch!)) return -1;
  }
  return -1;
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function brief(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
