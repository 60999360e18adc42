import { UserError } from '../base';

/**
 * Errors the model client surfaces. Every failure reaching the orchestrator is a ModelApiError whose
 * `kind` decides what happens next and whose message tells the user what to do.
 */

export type ModelErrorKind =
  | 'auth'
  | 'quota'
  | 'rate-limit'
  | 'server'
  | 'network'
  /** The server was never reached (connection refused, unknown host): a setting to fix, not a fault to retry. */
  | 'unreachable'
  | 'bad-request'
  | 'context-overflow'
  | 'timeout'
  | 'interrupted'
  | 'cancelled';

export interface ModelApiErrorInit {
  kind: ModelErrorKind;
  message: string;
  status?: number;
  retryable: boolean;
  /** Milliseconds the server asked us to wait (Retry-After / retry-after-ms), if any. */
  retryAfterMs?: number;
  /** The provider's error code (e.g. `insufficient_quota`, `context_length_exceeded`). */
  code?: string;
  /** Requests sent before giving up. */
  attempts?: number;
  cause?: unknown;
}

export class ModelApiError extends Error {
  readonly kind: ModelErrorKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;
  attempts: number;

  constructor(init: ModelApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ModelApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.code = init.code;
    this.attempts = init.attempts ?? 1;
  }
}

export type InterruptionReason = 'connection-lost' | 'idle-timeout' | 'premature-end' | 'stream-error';

/**
 * The stream broke after output had started. Whatever was streamed is void: partial tool-call JSON is
 * dropped, only the partial text is kept (for the log). Not retried by the transport retry layer;
 * `streamChatWithRecovery` re-runs the step once from a clean state.
 */
export class StreamInterruptedError extends ModelApiError {
  readonly reason: InterruptionReason;
  readonly partialText: string;
  /** How many tool calls had started streaming and were discarded. */
  readonly discardedToolCalls: number;

  constructor(init: { reason: InterruptionReason; message: string; partialText: string; discardedToolCalls: number; attempts?: number; cause?: unknown }) {
    super({ kind: 'interrupted', message: init.message, retryable: false, attempts: init.attempts, cause: init.cause });
    this.name = 'StreamInterruptedError';
    this.reason = init.reason;
    this.partialText = init.partialText;
    this.discardedToolCalls = init.discardedToolCalls;
  }
}

export function cancelledError(attempts: number): ModelApiError {
  return new ModelApiError({ kind: 'cancelled', message: 'model request cancelled', retryable: false, attempts });
}

/** Bad settings (missing model, malformed base URL, bad price entry): fix the configuration. */
export class ModelConfigError extends UserError {
  constructor(readonly problems: readonly string[]) {
    super(`invalid model settings: ${problems.join('; ')}`, 'model-config');
    this.name = 'ModelConfigError';
  }
}
