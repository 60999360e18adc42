import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../../core/base';
import type { DemoModel } from '../config/demoModel';

/** globalState: the sample copy just opened, and whether the demo model should answer there. */
const OPENED_SAMPLE = 'patchpilot.sample.opened';

/**
 * Open the Sample Project: the sample the VSIX ships (media/sample: dates.js with a failing test)
 * is copied into a new folder (inside one the user picks, or a temporary one) and opened in this
 * window. With the demo model on here, it answers there too (the demo only knows this sample).
 */
export function registerOpenSample(context: vscode.ExtensionContext, demo: DemoModel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.openSample', async () => {
      const pickFolder = 'Copy into a Folder I Choose...';
      const temp = 'Copy into a Temporary Folder';
      const where = await vscode.window.showQuickPick([pickFolder, temp], {
        title: 'PatchPilot: Open the Sample Project',
        placeHolder: 'A tiny JavaScript project whose npm test has one failing date test: where should the copy go?',
      });
      if (!where) return;
      let parent: string;
      if (where === temp) parent = mkdtempSync(path.join(os.tmpdir(), 'patchpilot-'));
      else {
        const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Copy the Sample Here' });
        if (!picked?.[0]) return;
        parent = picked[0].fsPath;
      }
      try {
        const target = freeName(parent, 'patchpilot-sample');
        cpSync(path.join(context.extensionPath, 'media', 'sample'), target, { recursive: true });
        await context.globalState.update(OPENED_SAMPLE, { folder: target, demo: demo.enabled });
        await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(target), { forceNewWindow: false });
      } catch (err) {
        void vscode.window.showErrorMessage(`PatchPilot: the sample could not be copied into ${parent}: ${errorMessage(err)}`);
      }
    }),
  );
}

/** In the sample copy just opened: the demo model answers there when it did where the user came from. */
export async function continueInSample(context: vscode.ExtensionContext, demo: DemoModel): Promise<void> {
  const opened = context.globalState.get<{ folder: string; demo: boolean }>(OPENED_SAMPLE);
  const here = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!opened || !here || path.resolve(here) !== path.resolve(opened.folder)) return;
  await context.globalState.update(OPENED_SAMPLE, undefined);
  if (opened.demo) await demo.setEnabled(true);
}

function freeName(parent: string, base: string): string {
  for (let i = 1; ; i++) {
    const candidate = path.join(parent, i === 1 ? base : `${base}-${i}`);
    if (!existsSync(candidate)) return candidate;
  }
}
