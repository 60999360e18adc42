/**
 * The contract of `patchpilot run --json` (docs/api.md, docs/events.schema.json): every line carries
 * the event stream's version `v`, and the last line is one `result` event with how the run ended, its
 * exit code and the name of that code, the tests, the usage and the cost. Scripts, the GitHub Action
 * and `patchpilot batch` read the result; the other lines are the agent's events (agentEvents.ts).
 */
import type { RoleUsageView, RunEndStatus, RunFailure, RunStoppedBy, RunTestsOutcome, TestFailureNames } from './agentEvents';

/** Goes up when a field of an event is removed or changes meaning; new optional fields and new event types keep it. */
export const EVENTS_VERSION = 1;

/**
 * The CLI's exit codes for a goal, by name (the `conclusion` of the result event). Each outcome a
 * script may act on differently has its own code; 2 is the CLI's usage error for every command.
 */
export const RUN_EXIT_CODES = {
  /** Finished; the tests after the last edit passed, or none ran. */
  success: 0,
  /** The model request failed, its stream broke off, the loop guard stopped a run going round in circles, or PatchPilot failed. */
  error: 1,
  /** A bad option, setting or goal: nothing ran. */
  usage: 2,
  /** Finished; the only failing tests failed before the run, are flaky or pass alone. */
  'known-failures': 3,
  /** Finished, but tests the run broke fail after its last edit. */
  'tests-failed': 4,
  /** Every edit needed an approval nobody could give (or a hook blocked the goal): nothing was changed. */
  blocked: 5,
  /** A budget ran out: steps, the wall clock, tokens, cost or the workspace's daily cost. */
  budget: 6,
  /** Ctrl-C, SIGTERM or SIGHUP stopped it. */
  cancelled: 130,
} as const;
export type RunConclusion = keyof typeof RUN_EXIT_CODES;

/** How a goal ended, as an exit code's name: its status, refined by its tests and by what stopped it. */
export function runConclusion(end: { status: RunEndStatus; tests?: RunTestsOutcome; stoppedBy?: RunStoppedBy }): RunConclusion {
  switch (end.status) {
    case 'finished':
      return end.tests === 'failed' ? 'tests-failed' : end.tests === 'known-failures' ? 'known-failures' : 'success';
    case 'blocked':
      return 'blocked';
    case 'limit':
      return 'budget';
    case 'stopped':
      return end.stoppedBy === 'repeated-failure' ? 'error' : 'budget';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
    case 'interrupted':
      return 'error';
  }
}

/** The last line of `patchpilot run --json`: exactly one per invocation. */
export interface RunResultEvent {
  v: typeof EVENTS_VERSION;
  type: 'result';
  /** The run's status; `not-started` when the goal never ran (a bad setting, an MCP prompt that failed). */
  status: RunEndStatus | 'not-started';
  conclusion: RunConclusion;
  exitCode: number;
  runId: string | null;
  reason: string;
  summary?: string;
  steps: number;
  tests: RunTestsOutcome;
  testFailures?: TestFailureNames;
  failure?: RunFailure;
  stoppedBy?: RunStoppedBy;
  /** Per model role, as in run/finished (absent when the goal never ran). */
  usage?: { reasoning: RoleUsageView; fast: RoleUsageView; totalCost?: number };
  /** Prompt plus completion tokens of every model role. */
  tokens: number;
  /** US dollars; null when a model used has no known price. */
  costUsd: number | null;
}
