/**
 * (attacks.guard) a hard link is another name for the same bytes, so "is this file ignored?" must be asked of
 * the inode, not only of the name. The inodes of `.patchpilotignore`d workspace files and of the
 * home's known credential files, found by one walk and reused for a moment (hard-linked reads come
 * in bursts: a pnpm node_modules is full of them).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HIDDEN_HOME_PATHS } from './bwrapArgs';
import { inodeKey, scanWorkspace } from './workspaceScan';

const REUSE_MS = 2000;
const HOME_BUDGET = 2000;

export type SecretInodeCheck = (dev: number, ino: number) => Promise<string | undefined>;

/** Returns, for an inode, the ignored or credential file it belongs to (undefined when none). */
export function createSecretInodeCheck(root: string, isIgnored: (rel: string, isDir: boolean) => boolean, homeDir = os.homedir()): SecretInodeCheck {
  let cached: { at: number; map: Promise<Map<string, string>> } | undefined;
  const load = async () => {
    const map = new Map<string, string>();
    const scan = await scanWorkspace(root, { isIgnored, isProtected: () => false });
    for (const e of scan.ignoredFiles) map.set(inodeKey(e), e.rel);
    let budget = HOME_BUDGET;
    const visit = async (p: string): Promise<void> => {
      if (--budget < 0) return;
      const st = await fs.lstat(p).catch(() => undefined);
      if (!st) return;
      if (st.isFile()) map.set(inodeKey(st), p);
      else if (st.isDirectory()) for (const name of await fs.readdir(p).catch(() => [] as string[])) await visit(path.join(p, name));
    };
    for (const rel of HIDDEN_HOME_PATHS) await visit(path.join(homeDir, rel));
    return map;
  };
  return async (dev, ino) => {
    if (!cached || Date.now() - cached.at > REUSE_MS) cached = { at: Date.now(), map: load() };
    return (await cached.map).get(inodeKey({ dev, ino }));
  };
}
