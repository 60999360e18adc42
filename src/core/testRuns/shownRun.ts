import { errorMessage } from '../base/errors';
import type { TaskRunResult, TestOutputView } from '../ports';

/** What runs a command: the command executor (sandboxed) or a TaskRunner; both stream through onOutput. */
export interface StreamingRunner {
  run(request: { command: string; cwd: string; signal: AbortSignal; timeoutMs?: number; onOutput?(chunk: string): void }): Promise<TaskRunResult>;
}

export interface ShownRunRequest {
  command: string;
  cwd: string;
  signal: AbortSignal;
  timeoutMs?: number;
  /** The caller's own live output, besides the view. */
  onOutput?(chunk: string): void;
}

/**
 * Runs one test command with `runner` and shows its output live in `view` (VS Code's task terminal):
 * the view streams the same process the result comes from, so there is one runner and one guard. The
 * result is the runner's, unchanged. The view can stop the run (the user closed its terminal): that is
 * a cancel, as Stop would be. Without a view the run is the runner's alone (the CLI).
 */
export async function runShown(runner: StreamingRunner, view: TestOutputView | undefined, request: ShownRunRequest): Promise<TaskRunResult> {
  if (!view) return runner.run(request);
  const stop = new AbortController();
  const onOuterAbort = () => stop.abort();
  if (request.signal.aborted) stop.abort();
  else request.signal.addEventListener('abort', onOuterAbort, { once: true });
  const sink = view.open(request.command, () => stop.abort());
  try {
    const onOutput = (chunk: string) => {
      sink.write(chunk);
      request.onOutput?.(chunk);
    };
    const result = await runner.run({ ...request, signal: stop.signal, onOutput });
    sink.end(result);
    return result;
  } catch (err) {
    sink.end({ exitCode: null, durationMs: 0, error: errorMessage(err) });
    throw err;
  } finally {
    request.signal.removeEventListener('abort', onOuterAbort);
  }
}
