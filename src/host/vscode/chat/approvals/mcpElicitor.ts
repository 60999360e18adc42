import * as vscode from 'vscode';
import type { ElicitationRequest, ElicitationResponse, Elicitor } from '../../../../core/ports';
import { elicitationContent, elicitationFields, type ElicitationField } from '../../../../protocol/elicitationForm';

/**
 * An MCP server asks the user for input during a call, in VS Code's own inputs (keyboard reachable,
 * read by screen readers): first a choice to fill in, decline or cancel, then one input per field
 * (a pick for choices and booleans), checked with the shared form model. A link is opened in the
 * browser only after "Open <url>?" is answered with Open.
 */
export class VsCodeElicitor implements Elicitor {
  async elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse> {
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return request.mode === 'url' ? await this.url(request, cts.token) : await this.form(request, cts.token);
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  private async url(r: Extract<ElicitationRequest, { mode: 'url' }>, token: vscode.CancellationToken): Promise<ElicitationResponse> {
    let target: vscode.Uri;
    try {
      target = vscode.Uri.parse(r.url, true);
    } catch {
      return { action: 'decline' };
    }
    if (target.scheme !== 'https' && target.scheme !== 'http') return { action: 'decline' };
    const open = 'Open the link';
    const choice = await Promise.race([
      vscode.window.showInformationMessage(`MCP server "${r.server}": ${r.message}\n\nOpen ${r.url}?`, { modal: true }, open, 'Decline the request'),
      new Promise<undefined>((resolve) => token.onCancellationRequested(() => resolve(undefined))),
    ]);
    if (choice === open) {
      await vscode.env.openExternal(target);
      return { action: 'accept' };
    }
    return choice ? { action: 'decline' } : { action: 'cancel' };
  }

  private async form(r: Extract<ElicitationRequest, { mode: 'form' }>, token: vscode.CancellationToken): Promise<ElicitationResponse> {
    const { fields, unsupported } = elicitationFields(r.requestedSchema);
    const fill = { label: 'Fill in the form', action: 'fill' as const };
    const decline = { label: 'Decline the request', action: 'decline' as const };
    const cancel = { label: 'Cancel the request', action: 'cancel' as const };
    const left = unsupported.length ? ` (not asked: ${unsupported.join(', ')})` : '';
    const first = await vscode.window.showQuickPick(
      [fill, decline, cancel],
      { title: `MCP server "${r.server}" asks: ${r.message}${left}`, ignoreFocusOut: true },
      token,
    );
    if (!first || first.action === 'cancel') return { action: 'cancel' };
    if (first.action === 'decline') return { action: 'decline' };
    const content: Record<string, string | number | boolean | string[]> = {};
    for (const f of fields) {
      const value = await ask(f, r.server, token);
      if (value === undefined) return { action: 'cancel' };
      const checked = elicitationContent([f], { [f.key]: value });
      if ('errors' in checked) return { action: 'cancel' };
      Object.assign(content, checked.content);
    }
    return { action: 'accept', content };
  }
}

/** One field: a pick for booleans and choices, else an input box checked as the user types. */
async function ask(f: ElicitationField, server: string, token: vscode.CancellationToken): Promise<string | boolean | string[] | undefined> {
  const title = `${server}: ${f.label}${f.required ? ' (required)' : ''}`;
  if (f.kind === 'boolean') {
    const picked = await vscode.window.showQuickPick(['Yes', 'No'], { title, placeHolder: f.description, ignoreFocusOut: true }, token);
    return picked === undefined ? undefined : picked === 'Yes';
  }
  if (f.kind === 'select' || f.kind === 'multiselect') {
    const items = (f.options ?? []).map((o) => ({
      label: o.label,
      value: o.value,
      picked: Array.isArray(f.default) ? f.default.includes(o.value) : f.default === o.value,
    }));
    if (f.kind === 'select') {
      const picked = await vscode.window.showQuickPick(items, { title, placeHolder: f.description, ignoreFocusOut: true }, token);
      return picked?.value;
    }
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: f.description, ignoreFocusOut: true, canPickMany: true }, token);
    return picked?.map((p) => p.value);
  }
  return vscode.window.showInputBox(
    {
      title,
      prompt: f.description,
      value: f.default === undefined ? '' : String(f.default),
      ignoreFocusOut: true,
      validateInput: (v) => {
        const checked = elicitationContent([f], { [f.key]: v });
        return 'errors' in checked ? Object.values(checked.errors)[0] : undefined;
      },
    },
    token,
  );
}
