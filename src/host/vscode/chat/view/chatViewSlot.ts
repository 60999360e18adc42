import type * as vscode from 'vscode';

/**
 * The chat's webview view while VS Code shows one. Created first in activate(): the provider fills
 * it, and the agent host asks it whether the chat is visible (else approvals also ask in a modal),
 * so neither needs the other to exist first.
 */
export class ChatViewSlot {
  view: vscode.WebviewView | undefined;

  get visible(): boolean {
    return this.view?.visible === true;
  }
}
