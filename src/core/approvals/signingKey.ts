/**
 * The per-user key that signs every approval file (MCP servers, workspace hooks, the model
 * program), kept outside every workspace and created on first use: a repository that commits an
 * approvals file carries entries this user's key did not sign, so it pre-approves nothing.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'mcp-approval.key';

/** The key, or why approvals cannot be kept across sessions (`problem`: they then live in memory). */
export function approvalSigningKey(userStateDir: string, what = 'MCP approvals'): { key?: Buffer; problem?: string } {
  const file = path.join(userStateDir, KEY_FILE);
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(text)) return { key: Buffer.from(text, 'hex') };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      return { problem: `${what} are not saved (cannot read ${file}: ${(err as Error).message}); they last for this session only` };
  }
  try {
    fs.mkdirSync(userStateDir, { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    // wx: two processes racing to create it agree on the first one written.
    fs.writeFileSync(file, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    return { key };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return approvalSigningKey(userStateDir, what);
    return { problem: `${what} are not saved (cannot create ${file}: ${(err as Error).message}); they last for this session only` };
  }
}

/** Compares two MACs in constant time. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
