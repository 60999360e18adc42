import * as vscode from 'vscode';
import { registerShowVersion } from './commands/showVersion';
import { registerRunTests } from './commands/runTests';
import { registerDiffReview } from './diff/registerDiffReview';
import { registerTestService } from './tests/testService';

/** Activation is a short list of registrations; each lives in its own file. */
export function activate(context: vscode.ExtensionContext): void {
  registerShowVersion(context);
  // ext-diff: the diff review (DiffPreview), Undo Last Patch, tests in a task terminal and on save.
  registerDiffReview(context);
  registerRunTests(context);
  registerTestService(context);
}

export function deactivate(): void {}
