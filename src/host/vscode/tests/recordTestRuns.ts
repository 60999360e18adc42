import type * as vscode from 'vscode';
import type { HistoryStore, TestTrigger } from '../../../core/history';
import type { TriggeredTestRun, TestService } from './testService';
import { errorMessage } from '../../../core/base';

const TRIGGERS: Record<Exclude<TriggeredTestRun['trigger'], 'agent'>, TestTrigger> = { command: 'manual', save: 'save' };

/**
 * Test runs outside the agent (Run Tests, run on save) go to the workspace history like the agent's
 * own, which the orchestrator records with its run. A history that cannot be opened costs the record,
 * never the test run.
 */
export function recordTestRuns(tests: TestService, history: () => Promise<HistoryStore | undefined>, log: vscode.LogOutputChannel): vscode.Disposable {
  return tests.onDidRunTests((report) => {
    if (report.trigger === 'agent') return;
    void (async () => {
      const store = await history();
      if (!store) return;
      for (const c of report.commands) {
        await store.addTestRun({
          runId: null,
          command: c.command,
          trigger: TRIGGERS[report.trigger as keyof typeof TRIGGERS],
          exitCode: c.result.exitCode,
          durationMs: c.result.durationMs,
          output: c.result.output,
        });
      }
    })().catch((err: unknown) => log.warn(`test run not recorded in history: ${errorMessage(err)}`));
  });
}
