/**
 * Assembles streamed chunks into one reply: text in order, tool calls by their `index` (providers
 * interleave parallel calls and split arguments anywhere), usage from whichever chunk carries it.
 * Only `finish()` yields tool calls, and only those whose arguments are complete JSON objects.
 */
import type OpenAI from 'openai';
import type { InvalidToolCall, ModelStreamEvent, ModelToolCall, ModelUsage } from './types';
import { fromWireUsage } from './wire';
import { errorMessage } from '../base';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface PendingCall {
  index: number;
  id: string;
  name: string;
  args: string;
  announced: boolean;
}

/** Some servers (DeepSeek, vLLM, OpenRouter) stream reasoning under a non-standard delta field. */
type DeltaWithReasoning = Chunk['choices'][number]['delta'] & { reasoning_content?: unknown; reasoning?: unknown };

export class TurnAssembler {
  text = '';
  reasoning = '';
  rawFinishReason: string | undefined;
  usage: ModelUsage | undefined;
  /** True once anything a consumer may have shown (text, reasoning, a tool call) was emitted. */
  outputStarted = false;
  private readonly calls = new Map<number, PendingCall>();

  constructor(private readonly emit: (e: ModelStreamEvent) => void) {}

  get startedToolCalls(): number {
    return this.calls.size;
  }

  push(chunk: Chunk): void {
    const usage = fromWireUsage(chunk.usage);
    if (usage) this.usage = usage;
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0) ?? chunk.choices?.[0];
    if (!choice) return;
    const delta = (choice.delta ?? {}) as DeltaWithReasoning;
    const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
    if (typeof reasoning === 'string' && reasoning) {
      this.reasoning += reasoning;
      this.outputStarted = true;
      this.emit({ type: 'reasoning-delta', text: reasoning });
    }
    if (typeof delta.content === 'string' && delta.content) {
      this.text += delta.content;
      this.outputStarted = true;
      this.emit({ type: 'text-delta', text: delta.content });
    }
    for (const [position, tc] of (delta.tool_calls ?? []).entries()) this.pushToolCall(tc, position);
    if (choice.finish_reason) this.rawFinishReason = choice.finish_reason;
  }

  private pushToolCall(tc: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall, position: number): void {
    // `index` is required by the spec; a few local servers omit it, then the array position stands in.
    const index = typeof tc.index === 'number' ? tc.index : position;
    let call = this.calls.get(index);
    if (!call) {
      call = { index, id: '', name: '', args: '', announced: false };
      this.calls.set(index, call);
    }
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
    const piece = tc.function?.arguments;
    if (typeof piece === 'string' && piece) {
      call.args += piece;
      this.outputStarted = true;
      if (call.announced) this.emit({ type: 'tool-call-delta', index, id: call.id, argumentsDelta: piece });
    }
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
      else valid.push({ id, name: call.name, argumentsJson });
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
