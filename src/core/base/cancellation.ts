/**
 * Cancellation is an AbortSignal everywhere (fetch, spawn, the SDKs and the loop take it as it is);
 * an abort that PatchPilot starts carries this error as its reason.
 */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}
