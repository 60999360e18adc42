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
  if (!url) {
    void vscode.window.showInformationMessage('PatchPilot: the endpoint setting is removed.');
    return;
  }
  // Without a model nothing runs yet: the next step is a button here, not a command name to find.
  const modelSet = !!settings.get<string>('patchpilot.llm.model');
  void vscode.window
    .showInformationMessage(
      modelSet ? `PatchPilot: the endpoint is ${url}.` : `PatchPilot: the endpoint is ${url}. Now choose one of its models.`,
      SELECT_MODEL,
    )
    .then((pick) => (pick === SELECT_MODEL ? vscode.commands.executeCommand('patchpilot.selectModel') : undefined));
}

const SELECT_MODEL = 'Select Model';
