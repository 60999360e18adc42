/**
 * Assembles streamed chunks into one reply: text in order, reasoning in every dialect (deltaReader.ts,
 * thinkTags.ts), refusals, tool calls by their `index` (providers interleave parallel calls and split
 * arguments anywhere), usage from whichever chunk carries it. Only `finishToolCalls()` yields tool
 * calls, and only those whose arguments are complete JSON objects. What it cannot read is kept in
 * `unread` and announced, never dropped silently.
 */
import type OpenAI from 'openai';
import { lazyChunk } from '../base/lazyChunks';
import type { InvalidToolCall, ModelStreamEvent, ModelToolCall, ModelUsage } from './types';
import { fromWireUsage, mergeUsage } from './wire';
import { readDelta } from './deltaReader';
import { ThinkTagSplitter, type ThinkPiece } from './thinkTags';
import { errorMessage } from '../base';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface PendingCall {
  index: number;
  id: string;
  name: string;
  args: string;
  announced: boolean;
  /** The server's own fields on the call (ModelToolCall.providerFields). */
  extra?: Record<string, unknown>;
}

/** A streamed tool call's own fields; any other is the server's, kept for the way back. */
const TOOL_CALL_FIELDS = new Set(['index', 'id', 'type', 'function']);

export class TurnAssembler {
  text = '';
  reasoning = '';
  refusal = '';
  /** Descriptions of what could not be read, each once. */
  readonly unread: string[] = [];
  rawFinishReason: string | undefined;
  /**
   * The server's closing usage report (a chunk with usage and no choices) came after the reply: some
   * servers never send a finish reason, and that report is sent only once generation is over.
   */
  endedByUsage = false;
  usage: ModelUsage | undefined;
  /** The model the server says answered (a chunk's `model`), when it names one. */
  responseModel: string | undefined;
  /** True once anything a consumer may have shown (text, reasoning, a tool call) was emitted. */
  outputStarted = false;
  private readonly calls = new Map<number, PendingCall>();
  /** The call now written under each wire `index` (a server may reuse an index for the next call). */
  private readonly byWireIndex = new Map<number, number>();
  private readonly think = new ThinkTagSplitter();

  constructor(private readonly emit: (e: ModelStreamEvent) => void) {}

  get startedToolCalls(): number {
    return this.calls.size;
  }

  push(chunk: Chunk): void {
    throwIfErrorChunk(chunk);
    // Groq reports usage under `x_groq` when stream_options is not honoured.
    const usage = fromWireUsage(chunk.usage ?? (chunk as { x_groq?: { usage?: Chunk['usage'] } }).x_groq?.usage);
    if (usage) this.usage = mergeUsage(this.usage, usage);
    if (usage && this.outputStarted && !chunk.choices?.length) this.endedByUsage = true;
    if (typeof chunk.model === 'string' && chunk.model) this.responseModel = chunk.model;
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0) ?? chunk.choices?.[0];
    if (!choice) return;
    // A few servers put a whole `message` into a chunk instead of a `delta`: read it the same way.
    const delta = (choice.delta ?? (choice as { message?: unknown }).message ?? {}) as Record<string, unknown>;
    const { pieces, unread } = readDelta(delta);
    for (const piece of pieces) {
      if (piece.kind === 'content') this.thinkPieces(this.think.push(piece.text));
      else if (piece.kind === 'text') this.addText(piece.text);
      else if (piece.kind === 'reasoning') this.addReasoning(piece.text);
      else {
        this.refusal += piece.text;
        this.outputStarted = true;
        this.emit({ type: 'refusal-delta', text: piece.text });
      }
    }
    for (const what of unread) this.noteUnread(what);
    const legacy = delta.function_call as { name?: string; arguments?: string } | undefined;
    if (legacy && typeof legacy === 'object') this.pushToolCall({ index: 0, function: legacy }, 0);
    const calls = Array.isArray(delta.tool_calls) ? (delta.tool_calls as Chunk['choices'][number]['delta']['tool_calls'])! : [];
    for (const [position, tc] of calls.entries()) this.pushToolCall(tc, position);
    if (choice.finish_reason) this.rawFinishReason = choice.finish_reason;
  }

  /** The stream ended normally: text held back for a possible tag is released. */
  end(): void {
    this.thinkPieces(this.think.flush());
  }

  private thinkPieces(pieces: ThinkPiece[]): void {
    for (const p of pieces) {
      if (p.kind === 'text') this.addText(p.text);
      else if (p.kind === 'reasoning') this.addReasoning(p.text);
      else {
        // An unmarked think block ended: what was shown as text was the model's reasoning.
        const moved = this.text + p.text;
        this.text = '';
        if (moved) {
          this.reasoning += moved;
          this.outputStarted = true;
          this.emit({ type: 'text-became-reasoning', text: moved });
        }
      }
    }
  }

  private addText(text: string): void {
    this.text += text;
    this.outputStarted = true;
    this.emit({ type: 'text-delta', text });
  }

  private addReasoning(text: string): void {
    this.reasoning += text;
    this.outputStarted = true;
    this.emit({ type: 'reasoning-delta', text });
  }

  private noteUnread(what: string): void {
    if (this.unread.includes(what)) return;
    this.unread.push(what);
    this.emit({ type: 'notice', kind: 'unread-content', message: `part of the reply could not be read: ${what}` });
  }

  private pushToolCall(tc: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall, position: number): void {
    const index = this.callIndex(tc, position);
    let call = this.calls.get(index);
    if (!call) {
      call = { index, id: '', name: '', args: '', announced: false };
      this.calls.set(index, call);
    }
    for (const [key, value] of Object.entries(tc)) if (!TOOL_CALL_FIELDS.has(key) && value != null) (call.extra ??= {})[key] = value;
    if (tc.id && !call.id) call.id = tc.id;
    if (tc.function?.name && !call.name) call.name = tc.function.name;
    if (!call.announced && call.name) {
      if (!call.id) call.id = `call_${index}_${Math.random().toString(36).slice(2, 10)}`;
      call.announced = true;
      this.outputStarted = true;
      this.emit({ type: 'tool-call-started', index, id: call.id, name: call.name });
      // Arguments that arrived before the name was known are released now, in order.
      if (call.args) this.emit({ type: 'tool-call-delta', index, id: call.id, argumentsDelta: call.args });
    }
    // A few servers send the arguments as a JSON object rather than the string the spec asks for.
    const sent = tc.function?.arguments as unknown;
    const piece = sent && typeof sent === 'object' ? JSON.stringify(sent) : sent;
    if (typeof piece === 'string' && piece) {
      call.args += piece;
      this.outputStarted = true;
      if (call.announced) this.emit({ type: 'tool-call-delta', index, id: call.id, argumentsDelta: piece });
    }
  }

  /**
   * Which call a tool-call delta continues. `index` says so in the spec; servers that omit it (then
   * the array position, or the call being written, stands in) or number every parallel call 0 are
   * told apart by the id: a delta that names a function under an id not seen yet starts a new call.
   */
  private callIndex(tc: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall, position: number): number {
    const id = typeof tc.id === 'string' && tc.id ? tc.id : undefined;
    const known = id ? [...this.calls.values()].find((c) => c.id === id) : undefined;
    if (known) return known.index;
    const next = this.calls.size ? Math.max(...this.calls.keys()) + 1 : 0;
    if (typeof tc.index !== 'number') {
      // No index: a new id, or a second call in the same chunk, starts a call; anything else continues the last one.
      return id || position > 0 || !this.calls.size ? Math.max(next, position) : next - 1;
    }
    const current = this.byWireIndex.get(tc.index);
    const startsAnother = current !== undefined && !!id && !!tc.function?.name && !!this.calls.get(current)?.id;
    if (current !== undefined && !startsAnother) return current;
    const index = current === undefined && !this.calls.has(tc.index) ? tc.index : next;
    this.byWireIndex.set(tc.index, index);
    return index;
  }

  /** The id of the call with the highest index: the one being written when a reply is cut off. */
  get lastStartedCallId(): string | undefined {
    const last = [...this.calls.values()].sort((a, b) => a.index - b.index).at(-1);
    return last ? last.id || `call_${last.index}` : undefined;
  }

  /** Tool calls by index: complete JSON objects in `valid`, the rest (with the reason) in `invalid`. */
  finishToolCalls(): { valid: ModelToolCall[]; invalid: InvalidToolCall[] } {
    const valid: ModelToolCall[] = [];
    const invalid: InvalidToolCall[] = [];
    for (const call of [...this.calls.values()].sort((a, b) => a.index - b.index)) {
      // Many models send "" for a tool without parameters; that means no arguments.
      const argumentsJson = call.args.trim() === '' ? '{}' : call.args;
      const problem = !call.name ? 'the tool call has no function name' : argumentsProblem(argumentsJson);
      const id = call.id || `call_${call.index}`;
      if (problem) invalid.push({ id, name: call.name, argumentsJson, problem });
      else valid.push({ id, name: call.name, argumentsJson, ...(call.extra ? { providerFields: call.extra } : {}) });
    }
    return { valid, invalid };
  }
}

/** Why tool-call arguments cannot be run (not complete JSON, not an object), or undefined when they can. */
export function argumentsProblem(json: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return `arguments are not complete JSON (${errorMessage(err)})`;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'arguments must be a JSON object';
  return undefined;
}

/**
 * An error object sent as a stream chunk without the `error` key the SDK looks for (older vLLM's flat
 * `{"object": "error", "message": ..., "code": ...}`): thrown like the SDK throws the keyed form.
 */
function throwIfErrorChunk(chunk: Chunk): void {
  const c = chunk as unknown as { object?: unknown; message?: unknown; choices?: unknown; code?: unknown; type?: unknown };
  if (c.object === 'error' || (!Array.isArray(c.choices) && typeof c.message === 'string')) {
    throw new (lazyChunk.openai().APIError)(undefined, { message: String(c.message ?? 'error'), code: c.code, type: c.type }, undefined, undefined);
  }
}
