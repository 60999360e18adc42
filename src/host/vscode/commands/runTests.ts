import * as vscode from 'vscode';
import type { TestService } from '../tests/testService';

/** "PatchPilot: Run Tests": every patchpilot.tests.commands in a task terminal, with a cancellable progress. */
export function registerRunTests(context: vscode.ExtensionContext, service: TestService | undefined): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.runTests', async () => {
      if (!vscode.workspace.isTrusted) return void vscode.window.showWarningMessage('PatchPilot runs tests only in a trusted workspace.');
      if (!service) return void vscode.window.showWarningMessage('PatchPilot: open a folder to run its tests.');
      return vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'PatchPilot: running tests', cancellable: true },
        async (_p, token) => {
          const stop = new AbortController();
          token.onCancellationRequested(() => stop.abort());
          const report = await service.runAll(stop.signal, 'command');
          if (!report) {
            if (!stop.signal.aborted) {
              // Not awaited: the command returns at once; the button opens the setting to fill in.
              void vscode.window
                .showInformationMessage('PatchPilot: no test commands are configured (patchpilot.tests.commands).', 'Open Settings')
                .then((pick) => {
                  if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'patchpilot.tests.commands');
                });
            }
            return undefined;
          }
          return {
            passed: report.passed,
            exitCodes: report.commands.map((c) => c.result.exitCode),
            output: report.commands.map((c) => c.result.output).join('\n'),
          };
        },
      );
    }),
  );
}
