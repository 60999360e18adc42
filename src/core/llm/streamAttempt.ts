/**
 * One streamed request, no retries: send, read chunks under an idle timer, and decide what a failure
 * means. Before any output a failure is an ordinary (maybe retryable) ModelApiError; after output
 * began it is a StreamInterruptedError, because a half-shown reply cannot be silently replaced.
 */
import type OpenAI from 'openai';
import { classifyError, type ClassifyContext } from './classifyError';
import { ModelApiError, StreamInterruptedError, cancelledError, type InterruptionReason } from './errors';
import { describeNetworkError, isNetworkError } from './classifyError';
import { TurnAssembler } from './turnAssembler';
import type { ModelStreamEvent } from './types';

export interface AttemptOptions {
  sdk: OpenAI;
  body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
  classify: ClassifyContext;
  signal: AbortSignal | undefined;
  idleTimeoutMs: number;
  firstChunkTimeoutMs: number;
  emit: (e: ModelStreamEvent) => void;
}

export async function streamOneAttempt(opts: AttemptOptions): Promise<TurnAssembler> {
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

  const assembler = new TurnAssembler(opts.emit);
  let failure: unknown;
  arm(opts.firstChunkTimeoutMs);
  try {
    const stream = await opts.sdk.chat.completions.create(opts.body, { signal: controller.signal });
    for await (const chunk of stream) {
      // Chunks already buffered when a cancel or stall hit are not shown: the attempt is over.
      if (controller.signal.aborted) break;
      assembler.push(chunk);
      // Until visible output starts the model may be thinking; afterwards silence means a stall.
      arm(assembler.outputStarted ? opts.idleTimeoutMs : opts.firstChunkTimeoutMs);
    }
  } catch (err) {
    failure = err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onUserAbort);
  }

  // Decide by what we know happened, not by the error's shape: an abort surfaces differently (or,
  // mid-stream, not at all: the SDK ends the iteration quietly).
  if (abortedBy === 'user') throw cancelledError(0);
  const where = opts.classify.baseUrl;
  if (abortedBy === 'idle') {
    if (assembler.outputStarted) {
      throw interrupted(assembler, 'idle-timeout', `the reply from ${where} stalled: no data for ${idleLimitMs} ms`);
    }
    throw new ModelApiError({
      kind: 'timeout',
      retryable: true,
      message: `no reply from ${where} within ${idleLimitMs} ms`,
    });
  }
  if (failure !== undefined) {
    // The reply was complete (finish_reason seen); only the trailing usage/[DONE] got lost.
    if (assembler.rawFinishReason && isNetworkError(failure)) return ended(assembler);
    if (assembler.outputStarted) {
      const reason: InterruptionReason = isNetworkError(failure) ? 'connection-lost' : 'stream-error';
      const detail = reason === 'connection-lost' ? describeNetworkError(failure) : classifyError(failure, opts.classify).message;
      throw interrupted(assembler, reason, `the reply from ${where} broke off: ${detail}`, failure);
    }
    throw classifyError(failure, opts.classify);
  }
  if (!assembler.rawFinishReason) {
    if (assembler.outputStarted) {
      throw interrupted(assembler, 'premature-end', `the reply from ${where} ended without a finish reason`);
    }
    throw new ModelApiError({
      kind: 'server',
      retryable: true,
      message: `${where} closed the stream without sending a reply`,
    });
  }
  return ended(assembler);
}

function ended(a: TurnAssembler): TurnAssembler {
  a.end();
  return a;
}

function interrupted(a: TurnAssembler, reason: InterruptionReason, message: string, cause?: unknown) {
  return new StreamInterruptedError({
    reason,
    message: a.startedToolCalls ? `${message}; ${a.startedToolCalls} partial tool call(s) discarded` : message,
    partialText: a.text,
    discardedToolCalls: a.startedToolCalls,
    cause,
  });
}
