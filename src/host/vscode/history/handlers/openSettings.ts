import * as vscode from 'vscode';
import type { HistoryHandler } from './types';

/** The retention and path settings, in VS Code's settings editor. */
export const openSettings: HistoryHandler<'history/openSettings'> = async () => {
  await vscode.commands.executeCommand('workbench.action.openSettings', 'patchpilot.history');
  return { ok: true, message: 'Opened the history settings.' };
};
