// In-host suite for "PatchPilot: Import Settings…" in the real extension host: the preview opens
// as a read-only document with the key masked and what is not imported; Apply Import writes the user
// settings (Global), the key into SecretStorage under its provider's name and the rules file;
// Cancel writes nothing. The questions (source, file, Apply/Cancel) are answered by the test.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { after, before as beforeAll, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import type { ImportQuestions } from '../../../src/host/vscode/commands/importSettings';

const EXTENSION_ID = 'patchpilot.patchpilot';
const api = async () => (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as PatchPilotApi;
const fixture = (name: string) => vscode.Uri.file(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'import', name));
const settings = () => vscode.workspace.getConfiguration('patchpilot');
const KEYS = ['llm.provider', 'llm.baseUrl', 'llm.model', 'mcp.servers'];

function answering(source: 'continue' | 'cline', file: string, apply: boolean, seen: { preview?: string; scheme?: string; summary?: string }): ImportQuestions {
  return {
    pickSource: async () => source,
    pickFile: async () => fixture(file),
    confirmApply: async (summary) => {
      const doc = vscode.window.activeTextEditor?.document;
      seen.preview = doc?.getText();
      seen.scheme = doc?.uri.scheme;
      seen.summary = summary;
      return apply;
    },
  };
}

describe('Import Settings (VS Code command)', () => {
  const rules = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.patchpilot', 'rules', 'imported-continue.md');

  const before: Record<string, unknown> = {};
  beforeAll(() => {
    for (const key of KEYS) before[key] = settings().inspect(key)?.globalValue;
  });

  after(async () => {
    // The user settings as the suite found them, and no preview tab left for the next suite.
    for (const key of KEYS) await settings().update(key, before[key], vscode.ConfigurationTarget.Global);
    const previews = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'patchpilot-import');
    await vscode.window.tabGroups.close(previews);
    await (await api()).providerKeys.for('custom').delete();
    await vscode.workspace.fs.delete(rules()).then(undefined, () => undefined);
  });

  it('Cancel after the preview writes nothing', async () => {
    const seen: { preview?: string } = {};
    const outcome = await vscode.commands.executeCommand('patchpilot.importSettings', answering('cline', 'cline_mcp_settings.json', false, seen));
    assert.equal(outcome, 'cancelled');
    assert.match(seen.preview ?? '', /patchpilot\.mcp\.servers: adds "github"/);
    assert.doesNotMatch(seen.preview ?? '', /ghp_fixture/, 'the MCP token is masked');
    assert.equal(settings().inspect('mcp.servers')?.globalValue, undefined);
  });

  it("Continue's config.yaml: the preview masks the key; Apply Import writes settings, the key and the rules", async () => {
    const seen: { preview?: string; scheme?: string; summary?: string } = {};
    const outcome = await vscode.commands.executeCommand('patchpilot.importSettings', answering('continue', 'continue-config.yaml', true, seen));
    assert.equal(outcome, 'applied');
    assert.equal(seen.scheme, 'patchpilot-import', 'the preview is a read-only virtual document');
    assert.match(seen.preview ?? '', /API key \(models\[0\] "Team gateway"\): ••••1234 -> VS Code's secret storage/);
    assert.doesNotMatch(seen.preview ?? '', /sk-continue-fixture/);
    assert.match(seen.preview ?? '', /Not imported:\n {2}- models\[1\] "Autocomplete"/);
    assert.match(seen.summary ?? '', /4 setting\(s\), the API key, the rules file/);
    assert.equal(settings().inspect('llm.provider')?.globalValue, 'custom');
    assert.equal(settings().inspect('llm.baseUrl')?.globalValue, 'http://127.0.0.1:4891/v1');
    assert.equal(settings().inspect('llm.model')?.globalValue, 'scripted-model');
    assert.deepEqual(Object.keys(settings().inspect<Record<string, unknown>>('mcp.servers')?.globalValue ?? {}), ['Filesystem', 'Tracker']);
    assert.equal(await (await api()).providerKeys.for('custom').get(), 'sk-continue-fixture-00000001234');
    const text = Buffer.from(await vscode.workspace.fs.readFile(rules())).toString('utf8');
    assert.match(text, /Always write a test for a new function\./);
  });
});
