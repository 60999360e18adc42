import * as vscode from 'vscode';
import type { Handler } from './types';

/** The banner's buttons run fixed commands of ours; the view names which, never a command id. */
export const openConfig: Handler<'config/open'> = async ({ what }) => {
  if (what === 'apiKey') await vscode.commands.executeCommand('patchpilot.setApiKey');
  // Choose Provider asks for the provider list itself; Select Model starts at the endpoint already set.
  else if (what === 'model') await vscode.commands.executeCommand('patchpilot.selectModel');
  else if (what === 'provider') await vscode.commands.executeCommand('patchpilot.selectModel', { changeProvider: true });
  else if (what === 'demo') await vscode.commands.executeCommand('patchpilot.useDemoModel');
  else if (what === 'stopDemo') await vscode.commands.executeCommand('patchpilot.stopDemoModel');
  else if (what === 'sample') await vscode.commands.executeCommand('patchpilot.openSample');
  else if (what === 'hunkButtons') await vscode.commands.executeCommand('patchpilot.review.showHunkButtons');
  else await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:patchpilot.patchpilot');
  return { ok: true };
};
