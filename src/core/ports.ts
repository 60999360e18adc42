/**
 * Interfaces the host implements (VS Code in src/host/vscode, Node in src/cli, fakes in tests).
 * Core code depends on these, never on a host directly.
 */

/** Tells the user something without blocking the work. */
export interface Notifier {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Time source, replaceable in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
