/**
 * The model's regular expression, run off the main thread under a time cap (attacks.patterns).
 *
 * JavaScript regexes backtrack: `(a+)+$` against a long line runs for years, and while it runs on
 * the main thread nothing else does (no wall clock, no Ctrl-C, no SIGTERM handler). ripgrep's
 * engine is linear, but without ripgrep the grep tool falls back to JS; there the pattern runs in a
 * worker thread that is terminated when the search's time is up (V8 interrupts a running regex).
 */
import { Worker } from 'node:worker_threads';
import { ToolError } from './types';

/** The whole JS search's matching time; ordinary patterns over a large repository need far less. */
export const REGEX_TIME_LIMIT_MS = 10_000;

// Plain CommonJS, evaluated in the worker: no bundling of a second entry point needed.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.pattern);
parentPort.on('message', (text) => {
  const lines = text.split(/\\r?\\n/);
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < workerData.max; i++) if (re.test(lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});
`;

export class RegexWorker {
  private readonly worker: Worker;
  private readonly deadline: number;
  private failure: Error | undefined;

  /** `pattern` must already compile (the caller reports a syntax error with its own wording). */
  constructor(
    private readonly pattern: string,
    maxHitsPerText: number,
    private readonly signal: AbortSignal,
    limitMs = REGEX_TIME_LIMIT_MS,
  ) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, max: maxHitsPerText } });
    this.worker.unref();
    this.worker.on('error', (err) => (this.failure = err));
    this.deadline = Date.now() + limitMs;
  }

  /** Indexes of the lines of `text` that match, within the remaining time; else a ToolError. */
  match(text: string): Promise<number[]> {
    this.signal.throwIfAborted();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<number[]>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (hits: number[]) => {
        done();
        resolve(hits);
      };
      const onError = (err: Error) => {
        done();
        reject(err);
      };
      const onAbort = () => {
        done();
        void this.worker.terminate();
        reject(this.signal.reason);
      };
      const timer = setTimeout(
        () => {
          done();
          void this.worker.terminate();
          reject(
            new ToolError(
              `the regular expression /${this.pattern}/ ran longer than ${REGEX_TIME_LIMIT_MS / 1000} s and was stopped (nested repetition like (a+)+ backtracks); simplify it`,
            ),
          );
        },
        Math.max(0, this.deadline - Date.now()),
      );
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.signal.addEventListener('abort', onAbort, { once: true });
      this.worker.postMessage(text);
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
