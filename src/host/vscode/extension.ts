import * as vscode from 'vscode';
import { registerShowVersion } from './commands/showVersion';
import { registerRunTests } from './commands/runTests';
import { registerDiffReview } from './diff/registerDiffReview';
import { VsCodeDiffPreview } from './diff/vsCodeDiffPreview';
import { createVsCodePatchEngine } from './diff/vsCodePatchEngine';
import { registerTestService, testService } from './tests/testService';

/** What activate() returns: the in-host tests drive the review and the tests through the extension's own instances. */
export interface PatchPilotApi {
  diffPreview: VsCodeDiffPreview;
  createPatchEngine: typeof createVsCodePatchEngine;
  testService: typeof testService;
}

/** Activation is a short list of registrations; each lives in its own file. */
export function activate(context: vscode.ExtensionContext): PatchPilotApi {
  registerShowVersion(context);
  // ext-diff: the diff review (DiffPreview), Undo Last Patch, tests in a task terminal and on save.
  registerDiffReview(context);
  registerRunTests(context);
  registerTestService(context);
  return { diffPreview: new VsCodeDiffPreview(context), createPatchEngine: createVsCodePatchEngine, testService };
}

export function deactivate(): void {}
