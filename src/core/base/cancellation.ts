import type { Disposable } from './disposable';
import { Emitter, type Event } from './event';

/** Cooperative cancellation, shaped like vscode.CancellationToken; bridges to AbortSignal for fetch/spawn. */
export interface CancellationToken {
  readonly isCancellationRequested: boolean;
  /** A listener added after cancellation is still called, once, on a later tick (VS Code's semantics). */
  readonly onCancellationRequested: Event<void>;
  readonly signal: AbortSignal;
}

/** The event of a token already cancelled: each listener runs once, on a later tick, unless disposed first. */
const alreadyCancelled: Event<void> = (listener) => {
  const handle = setTimeout(() => listener(undefined), 0);
  return { dispose: () => clearTimeout(handle) };
};

export class CancellationTokenSource {
  private readonly controller = new AbortController();
  private readonly emitter = new Emitter<void>();
  private parentListener: Disposable | undefined;
  readonly token: CancellationToken;

  /** A child of `parent`: cancelled when the parent is; `dispose()` stops listening to the parent. */
  constructor(parent?: CancellationToken) {
    const controller = this.controller;
    const emitter = this.emitter;
    this.token = {
      get isCancellationRequested() {
        return controller.signal.aborted;
      },
      onCancellationRequested: (listener) => (controller.signal.aborted ? alreadyCancelled(listener) : emitter.event(listener)),
      signal: controller.signal,
    };
    if (parent?.isCancellationRequested) this.cancel();
    else if (parent) this.parentListener = parent.onCancellationRequested(() => this.cancel());
  }

  cancel(): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(new CancelledError());
    this.emitter.fire();
    // Listeners have run; nobody needs them again (later ones go through alreadyCancelled).
    this.emitter.dispose();
  }

  /** Releases the listeners and the parent's reference to this source; `cancel` first if asked. */
  dispose(cancel = false): void {
    if (cancel) this.cancel();
    this.parentListener?.dispose();
    this.parentListener = undefined;
    this.emitter.dispose();
  }
}

export const CancellationToken = {
  /** Never cancelled: listeners are not kept. */
  None: Object.freeze<CancellationToken>({
    isCancellationRequested: false,
    onCancellationRequested: () => ({ dispose() {} }),
    signal: new AbortController().signal,
  }),
};

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}
