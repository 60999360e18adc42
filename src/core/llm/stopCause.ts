/**
 * Why a reply ended, read from any provider's spelling of it, for both protocols (chat completions'
 * `finish_reason`, the Messages API's `stop_reason`). Providers and the proxies in front of them
 * pass on their own words: `eos` (TGI, some vLLM builds), `end_turn`/`max_tokens`/`refusal` (an
 * Anthropic model behind an OpenAI-shaped proxy), `model_length` (Mistral), `SAFETY`/`RECITATION`
 * (Gemini through a proxy), `insufficient_system_resource` (DeepSeek), `error`/`abort` (Mistral,
 * OpenRouter, vLLM). Each is read as what it means, so a reply the token limit cut is continued,
 * one a filter stopped is said to be stopped, and one the provider broke off is not taken for an
 * answer; a spelling not known here is said plainly, never guessed.
 */
import type { FinishReason, ModelStreamEvent } from './types';

export interface StopCause {
  finishReason: FinishReason;
  /** The provider gave up on the reply (an error, a lack of resources): what came is no answer. */
  brokeOff: boolean;
  /** Said to the user when the reason needs saying (a pause, a spelling not known here). */
  note?: string;
}

const SPELLINGS: Record<string, FinishReason | 'broke-off' | 'paused'> = {
  stop: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  eos: 'stop',
  eos_token: 'stop',
  complete: 'stop',
  finished: 'stop',
  tool_calls: 'tool_calls',
  tool_call: 'tool_calls',
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
  length: 'length',
  max_tokens: 'length',
  max_output_tokens: 'length',
  model_length: 'length',
  model_context_window_exceeded: 'length',
  content_filter: 'content_filter',
  refusal: 'content_filter',
  safety: 'content_filter',
  recitation: 'content_filter',
  prohibited_content: 'content_filter',
  blocklist: 'content_filter',
  spii: 'content_filter',
  image_safety: 'content_filter',
  error: 'broke-off',
  abort: 'broke-off',
  aborted: 'broke-off',
  cancelled: 'broke-off',
  insufficient_system_resource: 'broke-off',
  malformed_function_call: 'broke-off',
  pause_turn: 'paused',
};

export function stopCauseOf(raw: string | null | undefined): StopCause {
  if (!raw) return { finishReason: 'other', brokeOff: false };
  const meaning = SPELLINGS[raw.trim().toLowerCase()];
  if (meaning === 'broke-off') return { finishReason: 'other', brokeOff: true };
  if (meaning === 'paused') {
    return { finishReason: 'other', brokeOff: false, note: `the provider paused the reply (stop reason "${raw}"): what came so far is kept as the reply` };
  }
  if (meaning) return { finishReason: meaning, brokeOff: false };
  return { finishReason: 'other', brokeOff: false, note: `the provider ended the reply with a stop reason PatchPilot does not know: "${raw}"` };
}

/** What the user and the model are told when the provider broke the reply off. */
export function brokeOffMessage(raw: string, where: string): string {
  return `the provider stopped the reply from ${where}: ${raw.replace(/_/g, ' ')} (finish reason "${raw}")`;
}

/** Tells the user why the reply ended when that needs saying (a pause, an unknown spelling). */
export function noteStopCause(raw: string | null | undefined, emit: (e: ModelStreamEvent) => void): void {
  const note = stopCauseOf(raw).note;
  if (note) emit({ type: 'notice', kind: 'stop-reason', message: note });
}
