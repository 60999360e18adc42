import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function tempDb(): { dir: string; db: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-hist-unit-'));
  return { dir, db: path.join(dir, '.patchpilot', 'history.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const DAY = 86_400_000;
