/**
 * The CLI's SecretStore (its Host's `secrets`): one JSON object in `mcp-oauth.json` in the user's
 * state folder (PATCHPILOT_STATE_HOME, core/config/userState.ts), mode 0600 in a 0700 folder, replaced through the one
 * atomic writer so a kill never leaves half a token file. Read on every get, so two CLI processes
 * (a `mcp login` while a run waits) see each other's writes; the last writer of one key wins.
 */
import * as fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../core/fs';
import type { SecretStore } from '../../core/ports';

export const OAUTH_FILE = 'mcp-oauth.json';

export class FileSecretStore implements SecretStore {
  readonly file: string;

  constructor(userStateDir: string) {
    this.file = path.join(userStateDir, OAUTH_FILE);
  }

  async get(key: string): Promise<string | undefined> {
    return this.read()[key];
  }

  async store(key: string, value: string): Promise<void> {
    this.write({ ...this.read(), [key]: value });
  }

  async delete(key: string): Promise<void> {
    const all = this.read();
    if (!(key in all)) return;
    delete all[key];
    this.write(all);
  }

  private read(): Record<string, string> {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
      }
    } catch {
      /* a torn or edited file: treated as empty (the user logs in again), then replaced whole */
    }
    return {};
  }

  private write(all: Record<string, string>): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  }
}
