/**
 * One streamed Messages request, no retries, under the rules every protocol's attempt shares
 * (streamAttempt.ts runStreamAttempt): an idle timer between events, a failure before output is an
 * ordinary (maybe retryable) ModelApiError, a failure after output began a StreamInterruptedError.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ClassifyContext } from '../classifyError';
import { runStreamAttempt } from '../streamAttempt';
import type { ModelStreamEvent } from '../types';
import { AnthropicTurnAssembler } from './anthropicAssembler';
import { toClassifiableError } from './anthropicErrors';

export interface AnthropicAttemptOptions {
  sdk: Anthropic;
  body: Anthropic.Messages.MessageCreateParamsStreaming;
  classify: ClassifyContext;
  signal: AbortSignal | undefined;
  idleTimeoutMs: number;
  firstChunkTimeoutMs: number;
  emit: (e: ModelStreamEvent) => void;
}

export function streamAnthropicAttempt(opts: AnthropicAttemptOptions): Promise<AnthropicTurnAssembler> {
  return runStreamAttempt(opts, {
    open: (signal) => opts.sdk.messages.create(opts.body, { signal }),
    assembler: new AnthropicTurnAssembler(opts.emit),
    complete: (a) => !!a.stopReason,
    stopReason: (a) => a.stopReason,
    classifiable: toClassifiableError,
  });
}
