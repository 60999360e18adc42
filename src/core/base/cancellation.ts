import { Emitter, type Event } from './event';

/** Cooperative cancellation, shaped like vscode.CancellationToken; bridges to AbortSignal for fetch/spawn. */
export interface CancellationToken {
  readonly isCancellationRequested: boolean;
  readonly onCancellationRequested: Event<void>;
  readonly signal: AbortSignal;
}

export class CancellationTokenSource {
  private readonly controller = new AbortController();
  private readonly emitter = new Emitter<void>();
  readonly token: CancellationToken;

  constructor(parent?: CancellationToken) {
    const controller = this.controller;
    const emitter = this.emitter;
    this.token = {
      get isCancellationRequested() {
        return controller.signal.aborted;
      },
      onCancellationRequested: emitter.event,
      signal: controller.signal,
    };
    if (parent) {
      if (parent.isCancellationRequested) this.cancel();
      else parent.onCancellationRequested(() => this.cancel());
    }
  }

  cancel(): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(new CancelledError());
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export const CancellationToken = {
  None: new CancellationTokenSource().token,
};

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}
