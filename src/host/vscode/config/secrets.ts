import * as vscode from 'vscode';

const API_KEY = 'patchpilot.apiKey';

/** The model API key lives in VS Code's SecretStorage (the OS keychain), never in settings. */
export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(): Thenable<string | undefined> {
    return this.secrets.get(API_KEY);
  }

  set(key: string): Thenable<void> {
    return this.secrets.store(API_KEY, key);
  }

  delete(): Thenable<void> {
    return this.secrets.delete(API_KEY);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === API_KEY) listener();
    });
  }
}
