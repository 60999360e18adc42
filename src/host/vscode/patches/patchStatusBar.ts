/**
 * The status bar's word on the last patch whose state changed ("Patch to greet.js: applied again by
 * you"), from the window's one store of patch states; a click opens the history. It shows what
 * changed, then steps aside after a while (the chat and the history keep every patch's state).
 */
import * as vscode from 'vscode';
import type { PatchStateView } from '../../../protocol/patchState';
import type { PatchStates } from './patchStates';

/** How long the word stays after the last change. */
const SHOWN_MS = 20_000;

export function registerPatchStatusBar(context: vscode.ExtensionContext, states: PatchStates): void {
  const item = vscode.window.createStatusBarItem('patchpilot.patchState', vscode.StatusBarAlignment.Left, 90);
  item.name = 'PatchPilot Patch State';
  item.command = 'patchpilot.showHistory';
  let timer: NodeJS.Timeout | undefined;
  const show = (patches: PatchStateView[]) => {
    const last = patches[patches.length - 1];
    // A proposal is the review's to show (its own status item); the outcomes are this item's.
    if (!last || last.state === 'proposed') return;
    const text = `Patch to ${last.files.join(', ') || 'files'}: ${last.words}`;
    item.text = `$(${last.state === 'undone' || last.state === 'restored-away' ? 'discard' : last.state === 'refused' ? 'circle-slash' : 'check'}) ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`;
    item.tooltip = `${text}\nClick to open the history.`;
    item.accessibilityInformation = { label: `PatchPilot: ${text}` };
    item.show();
    clearTimeout(timer);
    timer = setTimeout(() => item.hide(), SHOWN_MS);
  };
  context.subscriptions.push(item, states.onDidChange(show), { dispose: () => clearTimeout(timer) });
}
