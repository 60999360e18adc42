import * as vscode from 'vscode';
import OpenAI from 'openai';
import type { AgentHost } from '../agent/agentHost';
import type { DemoModel } from '../config/demoModel';
import type { HostConfig } from '../config/hostConfig';
import type { ApiKeyStore } from '../config/secrets';
import { isLoopbackEndpoint } from '../config/settingsReader';

/** Set API Key and Set Brave Search API Key (SecretStorage only), Select Model (the endpoint's /models, written to user settings). */
export function registerConfigCommands(context: vscode.ExtensionContext, keys: ApiKeyStore, config: HostConfig, host: AgentHost, log: vscode.LogOutputChannel, demo: DemoModel, searchKeys?: ApiKeyStore): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.setApiKey', () => setKey(keys, host, 'API Key', 'API key')),
    vscode.commands.registerCommand('patchpilot.setBraveApiKey', () => (searchKeys ? setKey(searchKeys, host, 'Brave Search API Key', 'Brave Search API key (web_search)') : undefined)),
    vscode.commands.registerCommand('patchpilot.selectModel', async () => {
      // Picking a real model ends the demo (its endpoint lists only itself).
      await demo.setEnabled(false);
      const { config: c } = await config.load();
      const baseURL = c.settings.llm.baseUrl;
      if (!baseURL) {
        const pick = await vscode.window.showWarningMessage('PatchPilot: set patchpilot.llm.baseUrl first (the OpenAI-compatible endpoint).', 'Open Settings');
        if (pick) await vscode.commands.executeCommand('workbench.action.openSettings', 'patchpilot.llm.baseUrl');
        return;
      }
      if (!c.apiKey && !isLoopbackEndpoint(baseURL)) {
        void vscode.window.showWarningMessage('PatchPilot: no API key; run "PatchPilot: Set API Key" first.');
        return;
      }
      let ids: string[];
      try {
        const client = new OpenAI({ baseURL, apiKey: c.apiKey ?? 'no-key', maxRetries: 1, timeout: 15_000 });
        ids = [];
        for await (const m of client.models.list()) ids.push(m.id);
      } catch (err) {
        log.error(`listing models at ${baseURL}: ${err instanceof Error ? err.message : String(err)}`);
        void vscode.window.showErrorMessage(`PatchPilot: could not list the models of ${baseURL} (see the PatchPilot log).`);
        return;
      }
      const current = c.settings.llm.model;
      const pick = await vscode.window.showQuickPick(
        ids.sort().map((id) => ({ label: id, description: id === current ? 'current' : undefined })),
        { title: 'PatchPilot: Select Model', placeHolder: `${ids.length} models at ${baseURL}` },
      );
      if (!pick) return;
      await vscode.workspace.getConfiguration().update('patchpilot.llm.model', pick.label, vscode.ConfigurationTarget.Global);
      host.invalidate();
    }),
  );
}

async function setKey(store: ApiKeyStore, host: AgentHost, title: string, what: string): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: `PatchPilot: Set ${title}`,
    prompt: 'Stored in VS Code\'s secret storage, never in settings. Leave empty to remove the stored key.',
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  if (value.trim()) {
    await store.set(value.trim());
    void vscode.window.showInformationMessage(`PatchPilot: ${what} saved in secret storage.`);
  } else {
    await store.delete();
    void vscode.window.showInformationMessage(`PatchPilot: ${what} removed.`);
  }
  host.invalidate();
}

/** The built-in demo model on and off (per workspace); the chat's banner says when it answers. */
export function registerDemoCommands(context: vscode.ExtensionContext, demo: DemoModel, host: AgentHost): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.useDemoModel', async () => {
      await demo.setEnabled(true);
      host.invalidate();
      await vscode.commands.executeCommand('patchpilot.openChat');
      void vscode.window.showInformationMessage(
        'PatchPilot: the demo model answers now. It is scripted, not a language model: it walks the sample workspace\'s failing date test. Try "make the failing date test pass".',
      );
    }),
    vscode.commands.registerCommand('patchpilot.stopDemoModel', async () => {
      await demo.setEnabled(false);
      host.invalidate();
    }),
  );
}
