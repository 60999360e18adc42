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
