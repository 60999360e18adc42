import * as vscode from 'vscode';
import type { HistoryHandler } from './types';

export const exportRun: HistoryHandler<'history/export'> = ({ runId, format }, { runs }) => runs.exportRun(runId, format);
/** The host asks for confirmation (a modal): a forged request deletes nothing by itself. */
export const deleteRun: HistoryHandler<'history/delete'> = ({ runId }, { runs }) => runs.deleteRun(runId);
/** The chat's own command opens it (commands/conversationCommands.ts), so the history needs no chat of its own. */
export const continueInChat: HistoryHandler<'history/continueInChat'> = async ({ runId }) => {
  const opened = await vscode.commands.executeCommand<boolean>('patchpilot.openConversation', runId);
  return opened
    ? { ok: true, message: 'The conversation is open in the chat: your next message continues it.' }
    : { ok: false, message: 'The conversation was not opened.' };
};
export const applyRetention: HistoryHandler<'history/applyRetention'> = (_payload, { runs }) => runs.applyRetention();
