import type { AgentEvent } from '../../protocol/agentEvents';
import { EVENTS_VERSION, RUN_EXIT_CODES, runConclusion, type RunResultEvent } from '../../protocol/runResult';

type RunFinished = Extract<AgentEvent, { type: 'run/finished' }>;

/**
 * `patchpilot run --json`: one event per line on stdout, each with the stream's version `v`, and at
 * the end exactly one `result` event (src/protocol/runResult.ts), also when the goal never ran.
 */
export class JsonEventStream {
  private finished: RunFinished | undefined;
  private ended = false;

  constructor(private readonly out: NodeJS.WritableStream = process.stdout) {}

  readonly onEvent = (e: AgentEvent): void => {
    if (e.type === 'run/finished') this.finished = e;
    this.write({ v: EVENTS_VERSION, ...e });
  };

  /** The result of the goal that ran (its run/finished); returns its exit code. */
  endWithRun(): number {
    if (!this.finished) return this.endNotStarted('the run ended without a result (see stderr)', RUN_EXIT_CODES.error);
    return this.end(resultOfRun(this.finished));
  }

  /** The result of a goal that never ran: `reason` says why; returns `exitCode`. */
  endNotStarted(reason: string, exitCode: number): number {
    const conclusion = exitCode === RUN_EXIT_CODES.usage ? 'usage' : 'error';
    return this.end({
      v: EVENTS_VERSION,
      type: 'result',
      status: 'not-started',
      conclusion,
      exitCode,
      runId: null,
      reason,
      steps: 0,
      tests: 'not-run',
      tokens: 0,
      costUsd: null,
    });
  }

  private end(result: RunResultEvent): number {
    if (!this.ended) this.write(result);
    this.ended = true;
    return result.exitCode;
  }

  private write(line: object): void {
    this.out.write(`${JSON.stringify(line)}\n`);
  }
}

/** The result event of a run: its run/finished, with the exit code, its name, and the usage summed up. */
export function resultOfRun(e: RunFinished): RunResultEvent {
  const conclusion = runConclusion(e);
  const roles = e.usage ? [e.usage.reasoning, e.usage.fast].filter((r) => r.requests > 0) : [];
  const tokens = roles.reduce((n, r) => n + r.promptTokens + r.completionTokens, 0);
  const { type: _type, ...run } = e;
  return {
    v: EVENTS_VERSION,
    type: 'result',
    ...run,
    runId: e.runId ?? null,
    conclusion,
    exitCode: RUN_EXIT_CODES[conclusion],
    tests: e.tests ?? 'not-run',
    tokens,
    costUsd: e.usage?.totalCost ?? null,
  };
}
