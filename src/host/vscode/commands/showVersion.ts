import * as vscode from 'vscode';

export function registerShowVersion(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.showVersion', () => {
      const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
      void vscode.window.showInformationMessage(`PatchPilot ${version}`);
    }),
  );
}
