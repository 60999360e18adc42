import * as vscode from 'vscode';
import type { ChatController } from '../chat/controller/chatController';
import type { DemoModel } from '../config/demoModel';
import type { HostConfig } from '../config/hostConfig';
import type { ApiKeyStore, ProviderKeys } from '../config/secrets';
import { providerById } from '../../../core/config';
import { selectModel } from './selectModel';
import { setEndpoint } from './setEndpoint';

/** Set API Key (the current provider's) and Set Brave Search API Key (SecretStorage only), Select Model (the whole setup flow), Set Endpoint. */
export function registerConfigCommands(
  context: vscode.ExtensionContext,
  keys: ProviderKeys,
  config: HostConfig,
  host: ChatController,
  log: vscode.LogOutputChannel,
  demo: DemoModel,
  searchKeys?: ApiKeyStore,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.setApiKey', async () => {
      const provider = providerById(await currentProvider(config));
      if (provider?.wire === 'vscode') {
        void vscode.window.showInformationMessage("PatchPilot: VS Code's models need no key: the extension that provides them signs in.");
        return;
      }
      await setKey(keys.for(provider?.id), host, 'API Key', provider && provider.id !== 'custom' ? `${provider.label} API key` : 'API key');
    }),
    vscode.commands.registerCommand('patchpilot.setBraveApiKey', () =>
      searchKeys ? setKey(searchKeys, host, 'Brave Search API Key', 'Brave Search API key (web_search)') : undefined,
    ),
    vscode.commands.registerCommand('patchpilot.selectModel', (options?: { changeProvider?: boolean }) =>
      selectModel({ config, keys, host, log, demo }, { changeProvider: options?.changeProvider === true }),
    ),
    vscode.commands.registerCommand('patchpilot.setEndpoint', () => setEndpoint(() => host.invalidate())),
  );
}

async function currentProvider(config: HostConfig): Promise<string | undefined> {
  try {
    return (await config.load()).config.settings.llm.provider;
  } catch {
    return undefined;
  }
}

async function setKey(store: ApiKeyStore, host: ChatController, title: string, what: string): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: `PatchPilot: Set ${title}`,
    prompt: "Stored in VS Code's secret storage, never in settings. Leave empty to remove the stored key.",
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
export function registerDemoCommands(context: vscode.ExtensionContext, demo: DemoModel, host: ChatController): void {
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
