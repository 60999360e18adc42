/**
 * "PatchPilot: Set Endpoint": the base URL in an input box, checked as the settings check it (an
 * http(s) URL without credentials in it), written to the user settings. Empty removes it.
 */
import * as vscode from 'vscode';
import { validateSettingValue } from '../../../core/config';

/** An input box for a base URL; undefined when cancelled, '' when emptied (only without `required`). */
export async function askBaseUrl(o: { title: string; value: string; required?: boolean }): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: o.title,
    value: o.value,
    prompt: 'The OpenAI-compatible base URL, ending before /chat/completions (for example http://127.0.0.1:11434/v1).',
    placeHolder: 'https://… or http://127.0.0.1:port/v1',
    ignoreFocusOut: true,
    validateInput: (v) => baseUrlProblem(v, o.required),
  });
  if (typed === undefined) return undefined;
  const checked = validateSettingValue('patchpilot.llm.baseUrl', typed);
  return checked.ok ? (checked.value as string) : '';
}

export function baseUrlProblem(value: string, required = false): string | undefined {
  if (!value.trim()) return required ? "Type the endpoint's base URL." : undefined;
  const checked = validateSettingValue('patchpilot.llm.baseUrl', value);
  return checked.ok ? undefined : `Not a usable base URL: ${checked.message}.`;
}

export async function setEndpoint(afterChange: () => void): Promise<void> {
  const settings = vscode.workspace.getConfiguration();
  const current = settings.get<string>('patchpilot.llm.baseUrl') ?? '';
  const url = await askBaseUrl({ title: 'PatchPilot: Set Endpoint', value: current });
  if (url === undefined) return;
  await settings.update('patchpilot.llm.baseUrl', url || undefined, vscode.ConfigurationTarget.Global);
  afterChange();
  void vscode.window.showInformationMessage(
    url ? `PatchPilot: the endpoint is ${url}. "PatchPilot: Select Model" lists its models.` : 'PatchPilot: the endpoint setting is removed.',
  );
}
