/**
 * One streamed Messages request, no retries, with the same rules as the chat-completions attempt
 * (streamAttempt.ts): an idle timer between events, a failure before output is an ordinary (maybe
 * retryable) ModelApiError, a failure after output began is a StreamInterruptedError.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { classifyError, describeNetworkError, isNetworkError, type ClassifyContext } from '../classifyError';
import { ModelApiError, StreamInterruptedError, cancelledError, type InterruptionReason } from '../errors';
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

export async function streamAnthropicAttempt(opts: AnthropicAttemptOptions): Promise<AnthropicTurnAssembler> {
  if (opts.signal?.aborted) throw cancelledError(0);
  const controller = new AbortController();
  let abortedBy: 'user' | 'idle' | undefined;
  let idleLimitMs = opts.firstChunkTimeoutMs;
  const onUserAbort = () => {
    abortedBy ??= 'user';
    controller.abort();
  };
  opts.signal?.addEventListener('abort', onUserAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number) => {
    clearTimeout(timer);
    idleLimitMs = ms;
    timer = setTimeout(() => {
      abortedBy ??= 'idle';
      controller.abort();
    }, ms);
  };

  const assembler = new AnthropicTurnAssembler(opts.emit);
  let failure: unknown;
  arm(opts.firstChunkTimeoutMs);
  try {
    const stream = await opts.sdk.messages.create(opts.body, { signal: controller.signal });
    for await (const event of stream) {
      if (controller.signal.aborted) break;
      assembler.push(event);
      // Thinking counts as output: the idle limit applies from the first event that shows something.
      arm(assembler.outputStarted ? opts.idleTimeoutMs : opts.firstChunkTimeoutMs);
    }
  } catch (err) {
    failure = toClassifiableError(err);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onUserAbort);
  }

  if (abortedBy === 'user') throw cancelledError(0);
  const where = opts.classify.baseUrl;
  if (abortedBy === 'idle') {
    if (assembler.outputStarted) throw interrupted(assembler, 'idle-timeout', `the reply from ${where} stalled: no data for ${idleLimitMs} ms`);
    throw new ModelApiError({ kind: 'timeout', retryable: true, message: `no reply from ${where} within ${idleLimitMs} ms` });
  }
  if (failure !== undefined) {
    // The reply was complete (stop_reason seen); only message_stop got lost.
    if (assembler.stopReason && isNetworkError(failure)) return assembler;
    if (assembler.outputStarted) {
      const reason: InterruptionReason = isNetworkError(failure) ? 'connection-lost' : 'stream-error';
      const detail = reason === 'connection-lost' ? describeNetworkError(failure) : classifyError(failure, opts.classify).message;
      throw interrupted(assembler, reason, `the reply from ${where} broke off: ${detail}`, failure);
    }
    throw classifyError(failure, opts.classify);
  }
  if (!assembler.stopReason) {
    if (assembler.outputStarted) throw interrupted(assembler, 'premature-end', `the reply from ${where} ended without a stop reason`);
    throw new ModelApiError({ kind: 'server', retryable: true, message: `${where} closed the stream without sending a reply` });
  }
  return assembler;
}

function interrupted(a: AnthropicTurnAssembler, reason: InterruptionReason, message: string, cause?: unknown) {
  return new StreamInterruptedError({
    reason,
    message: a.startedToolCalls ? `${message}; ${a.startedToolCalls} partial tool call(s) discarded` : message,
    partialText: a.text,
    discardedToolCalls: a.startedToolCalls,
    cause,
  });
}
