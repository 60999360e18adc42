import * as vscode from 'vscode';
import { providerById } from '../../../core/config';

const API_KEY = 'patchpilot.apiKey';
/** The Brave Search API key (web_search), kept the same way. */
export const BRAVE_API_KEY = 'patchpilot.braveApiKey';

/** An API key (the model's by default) lives in VS Code's SecretStorage (the OS keychain), never in settings. */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly name: string = API_KEY,
  ) {}

  get(): Thenable<string | undefined> {
    return this.secrets.get(this.name);
  }

  set(key: string): Thenable<void> {
    return this.secrets.store(this.name, key);
  }

  delete(): Thenable<void> {
    return this.secrets.delete(this.name);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === this.name) listener();
    });
  }
}

/**
 * One key per provider, so choosing another provider never sends the last one's key to it.
 * "custom" (and no provider) keep the original name, so a key saved before providers existed still works.
 */
export function apiKeyNameFor(provider: string | undefined): string {
  const known = providerById(provider);
  return known && known.id !== 'custom' ? `${API_KEY}.${known.id}` : API_KEY;
}

/** The model keys of every provider, each in SecretStorage under its own name. */
export class ProviderKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  for(provider: string | undefined): ApiKeyStore {
    return new ApiKeyStore(this.secrets, apiKeyNameFor(provider));
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === API_KEY || e.key.startsWith(`${API_KEY}.`)) listener();
    });
  }
}
