import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import type { TestRunReport } from '../testRuns';
import { runConfiguredTests } from '../tools/runTests';
import type { ToolContext } from '../tools/types';
import type { RunState } from './runState';

/**
 * Before a finish stands, the whole suite runs once when files changed since the last whole-suite
 * run: the runs after edits were aimed at the related tests only (relatedTests.ts), and a test the
 * cheap scan missed must not slip through. Not in a subagent (its parent finishes), not when tests do
 * not run after edits. Returns what the model reads if the finish is then refused.
 */
export async function wholeSuiteBeforeFinish(run: RunState, ctx: ToolContext): Promise<string | undefined> {
  const { tests: settings } = run.deps.settings;
  if (run.options.subagent || !settings.afterEdit || settings.commands.length === 0 || !run.tests.wholeSuiteDue) return undefined;
  try {
    const result = await runConfiguredTests(ctx);
    const report = result.data?.report as TestRunReport | undefined;
    if (report) run.tests.ranReport(report);
    else run.tests.ran(result.ok);
    return `The whole suite, run before the finish (the runs after your edits ran only the related tests):\n${result.output}`;
  } catch (err) {
    if (ctx.signal.aborted || err instanceof CancelledError) throw err;
    return `the whole suite before the finish could not run: ${errorMessage(err)}`;
  }
}
