// The SecretStore port for tests: the secrets in a map, each read and write recorded, so a test can
// tell that the core used exactly the store its host lent.
import type { SecretStore } from '../../../src/core/ports';

export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();
  /** Every call, in order: `get KEY`, `store KEY`, `delete KEY`. */
  readonly calls: string[] = [];

  async get(key: string): Promise<string | undefined> {
    this.calls.push(`get ${key}`);
    return this.values.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    this.calls.push(`store ${key}`);
    this.values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.calls.push(`delete ${key}`);
    this.values.delete(key);
  }
}
