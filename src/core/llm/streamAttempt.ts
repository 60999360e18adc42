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
import { brokeOffMessage, stopCauseOf } from './stopCause';
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

/** What the shared attempt rules need of a protocol's assembler. */
export interface StreamAssembler<E> {
  push(event: E): void;
  /** Anything a consumer may have shown (text, reasoning, a tool call) arrived. */
  readonly outputStarted: boolean;
  readonly text: string;
  readonly startedToolCalls: number;
}

/** One protocol's part of an attempt: how to open the stream, and when its reply is complete. */
export interface StreamProtocol<E, A extends StreamAssembler<E>> {
  open(signal: AbortSignal): Promise<AsyncIterable<E>>;
  assembler: A;
  /** The reply says it is complete (finish_reason, stop_reason). */
  complete(a: A): boolean;
  /** The provider's own word for why the reply ended (stopCause.ts reads it). */
  stopReason(a: A): string | undefined;
  /** Turns an SDK error into one classifyError understands (Anthropic's into the openai shape). */
  classifiable?(err: unknown): unknown;
}

type StreamLimits = Pick<AttemptOptions, 'classify' | 'signal' | 'idleTimeoutMs' | 'firstChunkTimeoutMs'>;

/** A chat-completions attempt. */
export async function streamOneAttempt(opts: AttemptOptions): Promise<TurnAssembler> {
  const assembler = await runStreamAttempt(opts, {
    open: (signal) => opts.sdk.chat.completions.create(opts.body, { signal }),
    assembler: new TurnAssembler(opts.emit),
    complete: (a) => !!a.rawFinishReason || a.endedByUsage,
    stopReason: (a) => a.rawFinishReason,
  });
  assembler.end();
  return assembler;
}

/**
 * The rules every protocol's attempt shares: an idle timer between events (a longer one until
 * output starts: the model may be thinking), a cancel that wins over whatever error it caused,
 * and what a failure means by what was already shown.
 */
export async function runStreamAttempt<E, A extends StreamAssembler<E>>(opts: StreamLimits, protocol: StreamProtocol<E, A>): Promise<A> {
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

  const { assembler } = protocol;
  let failure: unknown;
  arm(opts.firstChunkTimeoutMs);
  try {
    const stream = await protocol.open(controller.signal);
    for await (const event of stream) {
      // Events already buffered when a cancel or stall hit are not shown: the attempt is over.
      if (controller.signal.aborted) break;
      assembler.push(event);
      // Until visible output starts the model may be thinking; afterwards silence means a stall.
      arm(assembler.outputStarted ? opts.idleTimeoutMs : opts.firstChunkTimeoutMs);
    }
  } catch (err) {
    failure = protocol.classifiable ? protocol.classifiable(err) : err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onUserAbort);
  }

  // Decide by what we know happened, not by the error's shape: an abort surfaces differently (or,
  // mid-stream, not at all: the SDK ends the iteration quietly).
  if (abortedBy === 'user') throw cancelledError(0);
  const where = opts.classify.baseUrl;
  if (abortedBy === 'idle') {
    if (assembler.outputStarted) throw interrupted(assembler, 'idle-timeout', `the reply from ${where} stalled: no data for ${idleLimitMs} ms`);
    throw new ModelApiError({ kind: 'timeout', retryable: true, message: `no reply from ${where} within ${idleLimitMs} ms` });
  }
  if (failure !== undefined) {
    // The reply was complete; only what trails it (usage, [DONE], message_stop) got lost.
    if (protocol.complete(assembler) && isNetworkError(failure)) return assembler;
    if (assembler.outputStarted) {
      const reason: InterruptionReason = isNetworkError(failure) ? 'connection-lost' : 'stream-error';
      const detail = reason === 'connection-lost' ? describeNetworkError(failure) : classifyError(failure, opts.classify).message;
      throw interrupted(assembler, reason, `the reply from ${where} broke off: ${detail}`, failure);
    }
    throw classifyError(failure, opts.classify);
  }
  if (!protocol.complete(assembler)) {
    if (assembler.outputStarted) throw interrupted(assembler, 'premature-end', `the reply from ${where} ended without a finish reason`);
    throw new ModelApiError({ kind: 'server', retryable: true, message: `${where} closed the stream without sending a reply` });
  }
  // A reply the provider itself gave up on (`error`, `insufficient_system_resource`) is no answer: like a broken stream.
  const stop = protocol.stopReason(assembler);
  if (stop && stopCauseOf(stop).brokeOff) {
    if (assembler.outputStarted) throw interrupted(assembler, 'stream-error', brokeOffMessage(stop, where));
    throw new ModelApiError({ kind: 'server', retryable: true, message: brokeOffMessage(stop, where) });
  }
  return assembler;
}

function interrupted(a: StreamAssembler<unknown>, reason: InterruptionReason, message: string, cause?: unknown) {
  return new StreamInterruptedError({
    reason,
    message: a.startedToolCalls ? `${message}; ${a.startedToolCalls} partial tool call(s) discarded` : message,
    partialText: a.text,
    discardedToolCalls: a.startedToolCalls,
    cause,
  });
}
