/**
 * Assembles the Messages API's stream events into one reply: text and thinking as they come,
 * thinking blocks kept whole with their signatures (they go back unchanged), tool_use blocks with
 * their input JSON from `input_json_delta`, usage from message_start and message_delta. Emits the
 * same ModelStreamEvents as the chat-completions assembler, so consumers cannot tell the two apart.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { InvalidToolCall, ModelStreamEvent, ModelToolCall, ModelUsage, ThinkingBlock } from '../types';
import { fromAnthropicUsage, type AnthropicUsageFields } from './anthropicWire';
import { argumentsProblem } from '../turnAssembler';

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  | { kind: 'tool_use'; call: number; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'unknown'; type: string };

export class AnthropicTurnAssembler {
  text = '';
  reasoning = '';
  readonly thinkingBlocks: ThinkingBlock[] = [];
  /** The stop_reason once message_delta carried it; with message_stop, the reply is complete. */
  stopReason: string | undefined;
  /** `stop_details.explanation` of message_delta: why a refusal stopped the reply, in the provider's words. */
  stopExplanation: string | undefined;
  complete = false;
  /** True once anything a consumer may have shown (text, thinking, a tool call) was emitted. */
  outputStarted = false;
  /** Content block types this client does not know, reported in the reply instead of dropped. */
  readonly unknownBlocks: string[] = [];
  private usageFields: AnthropicUsageFields | undefined;
  private messageId: string | undefined;
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly calls: { id: string; name: string; json: string }[] = [];

  constructor(private readonly emit: (e: ModelStreamEvent) => void) {}

  get startedToolCalls(): number {
    return this.calls.length;
  }

  /** The tool_use block being written when a reply is cut off (max_tokens). */
  get lastStartedCallId(): string | undefined {
    return this.calls.at(-1)?.id;
  }

  get usage(): ModelUsage | undefined {
    return this.usageFields ? fromAnthropicUsage(this.usageFields) : undefined;
  }

  push(event: StreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.startMessage(event.message.id);
        // Some servers (and the documentation's thinking example) send no usage: it is then estimated.
        if (event.message.usage) this.usageFields = { ...(event.message.usage as AnthropicUsageFields) };
        break;
      case 'content_block_start':
        this.start(event.index, event.content_block as unknown as Record<string, unknown> & { type: string });
        break;
      case 'content_block_delta':
        this.delta(event.index, event.delta as unknown as Record<string, unknown> & { type: string });
        break;
      case 'content_block_stop':
        this.stop(event.index);
        break;
      case 'message_delta': {
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        const details = (event.delta as { stop_details?: { explanation?: unknown } | null }).stop_details;
        if (typeof details?.explanation === 'string' && details.explanation.trim()) this.stopExplanation = details.explanation.trim();
        // Cumulative counts: a field present here replaces message_start's, but a 0 never replaces a real count
        // (some proxies send input_tokens: 0 in the last message_delta).
        const u = event.usage as AnthropicUsageFields | undefined;
        if (u && Object.values(u).some((v) => typeof v === 'number')) {
          const merged = { ...(this.usageFields ?? {}) } as Record<string, number>;
          for (const [k, v] of Object.entries(u)) if (typeof v === 'number' && (v > 0 || !merged[k])) merged[k] = v;
          this.usageFields = merged;
        }
        break;
      }
      case 'message_stop':
        this.complete = true;
        break;
    }
  }

  /**
   * A second message_start for the same message is a repeat (some proxies send one); one for another
   * message means two replies were spliced into one stream (a gateway retried upstream mid-reply):
   * the stream is broken, and the attempt's rules restart the request, never a mix of both replies.
   */
  private startMessage(id: unknown): void {
    const messageId = typeof id === 'string' && id ? id : undefined;
    if (this.messageId && messageId && messageId !== this.messageId) {
      throw new Error(`the stream held a second reply (${messageId}) inside the first (${this.messageId}): it was spliced together upstream`);
    }
    this.messageId ??= messageId;
  }

  private start(index: number, block: Record<string, unknown> & { type: string }): void {
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'text' });
        if (typeof block.text === 'string' && block.text) this.addText(block.text);
        break;
      case 'thinking':
        this.blocks.set(index, { kind: 'thinking', thinking: '', signature: typeof block.signature === 'string' ? block.signature : '' });
        if (typeof block.thinking === 'string' && block.thinking) this.addThinking(index, block.thinking);
        break;
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted_thinking', data: typeof block.data === 'string' ? block.data : '' });
        this.outputStarted = true;
        break;
      case 'tool_use': {
        const call = this.calls.length;
        const id = typeof block.id === 'string' && block.id ? block.id : `toolu_${call}`;
        const name = typeof block.name === 'string' ? block.name : '';
        this.calls.push({ id, name, json: '' });
        this.blocks.set(index, { kind: 'tool_use', call, id, name, json: '', startInput: block.input });
        this.outputStarted = true;
        this.emit({ type: 'tool-call-started', index: call, id, name });
        break;
      }
      default:
        this.blocks.set(index, { kind: 'unknown', type: block.type });
        this.unknownBlocks.push(block.type);
    }
  }

  private delta(index: number, delta: Record<string, unknown> & { type: string }): void {
    const block = this.blocks.get(index);
    if (!block) return;
    if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) this.addText(delta.text);
    else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string' && delta.thinking) this.addThinking(index, delta.thinking);
    else if (delta.type === 'signature_delta' && block.kind === 'thinking' && typeof delta.signature === 'string') block.signature += delta.signature;
    else if (delta.type === 'input_json_delta' && block.kind === 'tool_use' && typeof delta.partial_json === 'string' && delta.partial_json) {
      block.json += delta.partial_json;
      this.calls[block.call]!.json = block.json;
      this.emit({ type: 'tool-call-delta', index: block.call, id: block.id, argumentsDelta: delta.partial_json });
    }
  }

  private stop(index: number): void {
    const block = this.blocks.get(index);
    if (!block) return;
    if (block.kind === 'thinking') this.thinkingBlocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    else if (block.kind === 'redacted_thinking') this.thinkingBlocks.push({ type: 'redacted_thinking', data: block.data });
    else if (block.kind === 'tool_use' && !block.json.trim() && block.startInput && typeof block.startInput === 'object') {
      // No input_json_delta at all: the input came whole in content_block_start.
      const json = JSON.stringify(block.startInput);
      this.calls[block.call]!.json = json;
      if (json !== '{}') this.emit({ type: 'tool-call-delta', index: block.call, id: block.id, argumentsDelta: json });
    }
  }

  private addText(text: string): void {
    this.text += text;
    this.outputStarted = true;
    this.emit({ type: 'text-delta', text });
  }

  private addThinking(index: number, text: string): void {
    const block = this.blocks.get(index);
    if (block?.kind === 'thinking') block.thinking += text;
    this.reasoning += text;
    this.outputStarted = true;
    this.emit({ type: 'reasoning-delta', text });
  }

  /** Tool calls in order: complete JSON objects in `valid`, the rest (with the reason) in `invalid`. */
  finishToolCalls(): { valid: ModelToolCall[]; invalid: InvalidToolCall[] } {
    const valid: ModelToolCall[] = [];
    const invalid: InvalidToolCall[] = [];
    for (const call of this.calls) {
      const argumentsJson = call.json.trim() === '' ? '{}' : call.json;
      const problem = !call.name ? 'the tool call has no name' : argumentsProblem(argumentsJson);
      if (problem) invalid.push({ id: call.id, name: call.name, argumentsJson, problem });
      else valid.push({ id: call.id, name: call.name, argumentsJson });
    }
    return { valid, invalid };
  }
}
