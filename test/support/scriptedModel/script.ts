/**
 * The script a ScriptedModelServer replays: one entry per expected model step. Each turn may first
 * fail in scripted ways (one fault per incoming request, in order) before its reply is served; only
 * a served reply moves the script to the next turn.
 */
import { readFileSync } from 'node:fs';
import type { ReplyToolCall, ReplyUsage, WireReply } from '../../../src/core/demo/wireReply';

export type ScriptedToolCall = ReplyToolCall;
export type ScriptedUsage = ReplyUsage;

export interface ScriptedReply extends WireReply {
  /** Pause between chunks of a reply that should still succeed. */
  chunkDelayMs?: number;
  /** Pause before the response starts (a model's time to first token). */
  delayMs?: number;
}

export type ScriptedFault =
  /** Any HTTP error: status, optional JSON (or text) body and headers. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; retryAfter?: number | string }
  /** 429 with `Retry-After: seconds` (omitted: no header). */
  | { kind: 'rate-limit'; retryAfterSeconds?: number }
  /** 429 whose body says insufficient_quota, as OpenAI sends when billing is exhausted. */
  | { kind: 'quota' }
  /** Destroy the connection as soon as the request arrived (client sees a reset / hang up). */
  | { kind: 'reset' }
  /** Send the first N chunks of the reply, then destroy the socket (a cut mid-stream). */
  | { kind: 'cut'; afterChunks: number }
  /** Send the first N chunks, then end the response cleanly: no finish_reason, no [DONE]. */
  | { kind: 'end-early'; afterChunks: number }
  /** Send the first N chunks, then go silent while keeping the connection open. */
  | { kind: 'stall'; afterChunks: number }
  /** Never answer: not even headers. */
  | { kind: 'hang' }
  /** Serve the whole reply with this pause between chunks (from chunk `afterChunks` on, default 1); the turn does NOT advance. */
  | { kind: 'slow'; chunkDelayMs: number; afterChunks?: number };

/** Declarative checks on the incoming request (usable from JSON script files). */
export interface ScriptedExpectation {
  model?: string;
  lastMessageRole?: 'system' | 'user' | 'assistant' | 'tool';
  /** The last message's content contains this text. */
  lastMessageContains?: string;
  /** Some message's content contains this text. */
  anyMessageContains?: string;
  /** The request offers tools with these names. */
  toolsInclude?: string[];
}

export interface ScriptedTurn {
  label?: string;
  reply: ScriptedReply;
  faults?: ScriptedFault[];
  expect?: ScriptedExpectation;
  /** Code-only check: return a string (or throw) to reject the request as not what was expected. */
  check?: (request: { body: Record<string, unknown>; headers: Record<string, string> }) => string | void;
}

/**
 * A reply chosen by the request instead of by the turn order (code only): for requests that come in
 * any order, such as parallel subagents. A matching route answers and the turn does not advance.
 */
export interface ScriptedRoute {
  match(body: Record<string, any>): boolean;
  reply(body: Record<string, any>): ScriptedReply;
}

export interface Script {
  turns: ScriptedTurn[];
  /** Checked before the turns, in order. */
  routes?: ScriptedRoute[];
  /** Answer every request with one JSON chat.completion, even when it asked to stream (servers and proxies that ignore `stream: true`). */
  ignoreStream?: boolean;
  /** Answer 400 to any request carrying `stream_options`, like servers that do not know it. */
  rejectStreamOptions?: boolean;
  /** The model named in every reply's chunks (a server resolving an alias); default: the request's model. */
  responseModel?: string;
  /** Model id listed by GET /v1/models. Default `scripted-model`. */
  modelId?: string;
  /** More fields of that model's entry in GET /v1/models, as servers add them (`{ context_length: 32768 }`). */
  modelFields?: Record<string, unknown>;
  /**
   * Replies by the request's model, served every time and outside the turn order: for side
   * requests whose number and timing a script cannot know (the fast model's context summaries).
   * A request for a model listed here never consumes a turn.
   */
  modelReplies?: Record<string, ScriptedReply>;
}

/** Problems with a script (from a file or code), all at once. */
export function validateScript(value: unknown): string[] {
  const problems: string[] = [];
  const s = value as Partial<Script> | null;
  if (!s || typeof s !== 'object' || !Array.isArray(s.turns)) return ['a script is an object with a "turns" array'];
  for (const [model, reply] of Object.entries(s.modelReplies ?? {})) {
    if (!reply || typeof reply !== 'object') problems.push(`modelReplies["${model}"] must be a reply object`);
  }
  s.turns.forEach((turn, i) => {
    const at = `turns[${i}]`;
    if (!turn || typeof turn !== 'object') return problems.push(`${at} must be an object`);
    if (!turn.reply || typeof turn.reply !== 'object') problems.push(`${at}.reply must be an object`);
    for (const [j, call] of (turn.reply?.toolCalls ?? []).entries()) {
      if (!call || typeof call.name !== 'string') problems.push(`${at}.reply.toolCalls[${j}].name must be a string`);
      if (typeof call?.arguments !== 'string' && (typeof call?.arguments !== 'object' || call.arguments === null)) {
        problems.push(`${at}.reply.toolCalls[${j}].arguments must be a string or an object`);
      }
    }
    const kinds = ['status', 'rate-limit', 'quota', 'reset', 'cut', 'end-early', 'stall', 'hang', 'slow'];
    for (const [j, fault] of (turn.faults ?? []).entries()) {
      if (!fault || !kinds.includes((fault as { kind?: string }).kind ?? '')) {
        problems.push(`${at}.faults[${j}].kind must be one of ${kinds.join(', ')}`);
      }
    }
    return undefined;
  });
  return problems;
}

export function loadScriptFile(file: string): Script {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read script ${file}: ${(err as Error).message}`);
  }
  const problems = validateScript(parsed);
  if (problems.length) throw new Error(`invalid script ${file}: ${problems.join('; ')}`);
  return parsed as Script;
}
