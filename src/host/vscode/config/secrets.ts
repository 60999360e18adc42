import * as vscode from 'vscode';

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
