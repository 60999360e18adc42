import type * as vscode from 'vscode';
import type { SecretStore } from '../../../core/ports';

/** The core's SecretStore port on VS Code's SecretStorage (the OS keychain): remote MCP servers' OAuth tokens. */
export class VsCodeSecretStore implements SecretStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(key: string): Promise<string | undefined> {
    return this.secrets.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    await this.secrets.store(key, value);
  }

  async delete(key: string): Promise<void> {
    await this.secrets.delete(key);
  }
}
