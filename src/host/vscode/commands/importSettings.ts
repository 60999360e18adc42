/**
 * "PatchPilot: Import Settings…": pick Roo Code, Cline or Continue and their file, read the preview
 * (a read-only document: each setting before -> after, the key masked, what is not imported and
 * why), then Apply Import or Cancel. Settings go to the user scope (Global, as the CLI's user file),
 * the key to SecretStorage under its provider's name, rules to the first folder's
 * `.patchpilot/rules/imported-<source>.md`. The core (src/core/import) reads and merges; this file
 * only asks, shows and writes.
 */
import * as vscode from 'vscode';
import type { SettingKey } from '../../../core/config';
import { providerById } from '../../../core/config';
import {
  ImportError,
  importedRulesFile,
  IMPORT_SOURCES,
  mergeIntoSettings,
  PLANNERS,
  renderImportPreview,
  rulesFileText,
  SOURCE_LABELS,
  type ImportSource,
} from '../../../core/import';
import type { ProviderKeys } from '../config/secrets';

export const PREVIEW_SCHEME = 'patchpilot-import';
export const APPLY_IMPORT = 'Apply Import';

/** The questions the command asks; the in-host test answers them without dialogs. */
export interface ImportQuestions {
  pickSource(): Promise<ImportSource | undefined>;
  pickFile(source: ImportSource): Promise<vscode.Uri | undefined>;
  /** Asked with the preview open; true: write. */
  confirmApply(summary: string): Promise<boolean>;
}

export type ImportOutcome = 'applied' | 'cancelled' | 'nothing' | 'failed';

/** Where each tool keeps the file people import from, to open the file dialog there. */
const USUAL_FILES: Readonly<Record<ImportSource, string[]>> = {
  roo: [],
  cline: [],
  continue: ['.continue', 'config.yaml'],
};

export const dialogQuestions: ImportQuestions = {
  async pickSource() {
    const picked = await vscode.window.showQuickPick(
      IMPORT_SOURCES.map((id) => ({ label: SOURCE_LABELS[id], id, description: SOURCE_HINTS[id] })),
      { title: 'PatchPilot: Import Settings From', placeHolder: 'Choose the agent whose settings you bring over' },
    );
    return picked?.id;
  },
  async pickFile(source) {
    const home = process.env.HOME;
    const usual = USUAL_FILES[source];
    const [picked] =
      (await vscode.window.showOpenDialog({
        title: `PatchPilot: Import ${SOURCE_LABELS[source]} Settings`,
        openLabel: 'Preview Import',
        canSelectMany: false,
        ...(home && usual.length ? { defaultUri: vscode.Uri.joinPath(vscode.Uri.file(home), ...usual) } : {}),
        filters: source === 'continue' ? { 'Continue config': ['yaml', 'yml', 'json'] } : { JSON: ['json'], 'All files': ['*'] },
      })) ?? [];
    return picked;
  },
  async confirmApply(summary) {
    // VS Code adds Cancel to a modal; the one action is named with its verb.
    const answer = await vscode.window.showInformationMessage('PatchPilot: Apply this import?', { modal: true, detail: summary }, APPLY_IMPORT);
    return answer === APPLY_IMPORT;
  },
};

const SOURCE_HINTS: Readonly<Record<ImportSource, string>> = {
  roo: 'the settings export, or mcp_settings.json',
  cline: 'cline_mcp_settings.json, or .clinerules',
  continue: '~/.continue/config.yaml, or the older config.json',
};

/** The preview documents by URI; a content provider serves them read-only. */
export class ImportPreviews implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  async show(source: ImportSource, text: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/Import from ${SOURCE_LABELS[source]} (${++this.counter}).txt` });
    this.texts.set(uri.toString(), text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }
}

export async function importSettings(deps: {
  keys: ProviderKeys;
  previews: ImportPreviews;
  questions: ImportQuestions;
  afterChange: () => void;
}): Promise<ImportOutcome> {
  const source = await deps.questions.pickSource();
  if (!source) return 'cancelled';
  const file = await deps.questions.pickFile(source);
  if (!file) return 'cancelled';
  let plan;
  try {
    plan = PLANNERS[source](file.fsPath, Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8'));
  } catch (err) {
    void vscode.window.showErrorMessage(`PatchPilot: ${err instanceof ImportError ? err.message : `cannot read ${file.fsPath}: ${String(err)}`}`);
    return 'failed';
  }
  const settings = vscode.workspace.getConfiguration();
  const keysToRead = [...Object.keys(plan.settings), 'patchpilot.llm.baseUrl'] as SettingKey[];
  const current = Object.fromEntries(keysToRead.map((k) => [k, settings.inspect(k)?.globalValue])) as Partial<Record<SettingKey, unknown>>;
  const merged = mergeIntoSettings(plan, current);
  const folder = vscode.workspace.workspaceFolders?.[0];
  const rulesUri = plan.rules && folder ? vscode.Uri.joinPath(folder.uri, importedRulesFile(source)) : undefined;
  const provider = providerById(plan.apiKey?.provider);
  const text = renderImportPreview(plan, merged, {
    settings: 'your VS Code user settings',
    apiKey: `VS Code's secret storage, as the ${provider && provider.id !== 'custom' ? `${provider.label} ` : ''}API key`,
    ...(rulesUri ? { rules: vscode.workspace.asRelativePath(rulesUri) } : {}),
  });
  await deps.previews.show(source, text);
  const writes = merged.changes.length + (plan.apiKey ? 1 : 0) + (rulesUri ? 1 : 0);
  if (!writes) {
    void vscode.window.showInformationMessage('PatchPilot: nothing to import: your settings already hold everything this file has.');
    return 'nothing';
  }
  const summary = `${merged.changes.length} setting(s)${plan.apiKey ? ', the API key' : ''}${rulesUri ? ', the rules file' : ''}; ${plan.notImported.length + merged.kept.length} item(s) not imported. The preview lists each.`;
  if (!(await deps.questions.confirmApply(summary))) return 'cancelled';

  for (const c of merged.changes) await settings.update(c.key, c.after, vscode.ConfigurationTarget.Global);
  if (plan.apiKey) await deps.keys.for(plan.apiKey.provider).set(plan.apiKey.value);
  if (rulesUri && plan.rules) {
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(rulesUri, { overwrite: true, contents: Buffer.from(rulesFileText(SOURCE_LABELS[source], file.fsPath, plan.rules.text), 'utf8') });
    await vscode.workspace.applyEdit(edit);
  }
  deps.afterChange();
  void vscode.window.showInformationMessage(
    `PatchPilot: imported from ${SOURCE_LABELS[source]}.${plan.settings['patchpilot.mcp.servers'] ? ' Each MCP server asks for your approval before it first starts.' : ''}`,
  );
  return 'applied';
}

export function registerImportSettings(context: vscode.ExtensionContext, keys: ProviderKeys, afterChange: () => void): void {
  const previews = new ImportPreviews();
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    // From the palette there is no argument; a caller in this extension host (the in-host test) may answer the questions itself.
    vscode.commands.registerCommand('patchpilot.importSettings', (answers?: unknown) =>
      importSettings({ keys, previews, questions: isQuestions(answers) ? answers : dialogQuestions, afterChange }),
    ),
  );
}

function isQuestions(v: unknown): v is ImportQuestions {
  const q = v as Partial<ImportQuestions> | undefined;
  return typeof q?.pickSource === 'function' && typeof q.pickFile === 'function' && typeof q.confirmApply === 'function';
}
