/**
 * Small secrets kept per user, outside every workspace (OAuth tokens of remote MCP servers): VS
 * Code's SecretStorage (the OS keychain) in the extension, a mode-0600 file in the user's state
 * folder for the CLI (src/host/node/fileSecretStore.ts), a map in tests. Each host lends its own as
 * Host.secrets; the core has no default.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
