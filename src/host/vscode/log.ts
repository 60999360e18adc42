import * as vscode from 'vscode';

/** PatchPilot's log: a LogOutputChannel, so the user picks the level and VS Code adds timestamps. */
export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const log = vscode.window.createOutputChannel('PatchPilot', { log: true });
  context.subscriptions.push(log);
  return log;
}
