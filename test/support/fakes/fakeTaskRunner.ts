// A TaskRunner for unit tests: scripted results per command, a record of the requests, live output replayed.
import type { TaskRunner, TaskRunRequest, TaskRunResult } from '../../../src/core/ports';

export class FakeTaskRunner implements TaskRunner {
  readonly requests: TaskRunRequest[] = [];
  constructor(private readonly results: (command: string) => Partial<TaskRunResult> = () => ({})) {}
  async run(request: TaskRunRequest): Promise<TaskRunResult> {
    this.requests.push(request);
    const r: TaskRunResult = { exitCode: 0, output: '', truncated: false, durationMs: 1, timedOut: false, cancelled: false, ...this.results(request.command) };
    if (request.signal?.aborted) return { ...r, exitCode: null, cancelled: true };
    if (r.output) request.onOutput?.(r.output);
    return r;
  }
}
