import type { RunTestsOutcome } from '../../protocol/agentEvents';
import type { Tool, ToolResult } from '../tools/types';

/**
 * What the tests after the run's last file change said (test/unit/orchestrator/testsOutcome.test.ts).
 * A change resets it to 'not-run': tests that passed before an edit say nothing about the code the
 * run leaves behind. Fed by the after-write hook (the write, then the tests it ran) and by the
 * calls whose tool declares a test verdict, in the order they happened.
 */
export class TestsAfterLastChange {
  private state: RunTestsOutcome = 'not-run';
  private changes = 0;

  get outcome(): RunTestsOutcome {
    return this.state;
  }

  /** Counts every change and test run: the same version means nothing was edited or tested since. */
  get version(): number {
    return this.changes;
  }

  /** Files were written: whatever ran before does not test them. */
  changed(): void {
    this.state = 'not-run';
    this.changes++;
  }

  /** One test run (every configured command): it passed only when all of them did. */
  ran(passed: boolean): void {
    this.state = passed ? 'passed' : 'failed';
    this.changes++;
  }

  /** A tool call's result, as its tool declares it (run_tests ran them, a subagent edited); other calls change nothing. */
  noteCall(tool: Tool<any> | undefined, result: ToolResult): void {
    const verdict = tool?.loop?.testsOutcome?.(result);
    if (verdict === 'not-run') this.changed();
    else if (verdict) this.ran(verdict === 'passed');
  }
}

/** One wording for everyone (CLI, chat, toast, history timeline). */
export { describeTestsOutcome } from '../../protocol/runEnd';
