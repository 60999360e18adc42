import * as vscode from 'vscode';
import { registerShowVersion } from './commands/showVersion';

/** Activation is a short list of registrations; each lives in its own file. */
export function activate(context: vscode.ExtensionContext): void {
  registerShowVersion(context);
}

export function deactivate(): void {}
