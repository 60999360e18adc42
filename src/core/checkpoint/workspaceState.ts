/**
 * The workspace as a checkpoint sees it: a stat of every path that is not ignored (`.gitignore`,
 * `.patchpilotignore`), not `.git` and not PatchPilot's own state folder, and the state (hash, mode)
 * of one path. A stat signature tells whether a path may have changed; only then are its bytes read.
 */
import { promises as fsp, type Stats } from 'node:fs';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { TimeSlicer } from '../base/timeSlicer';
import type { FileState } from './types';

export interface StatRow {
  kind: FileState['kind'];
  /** Changes when the path may have: kind, size, mtime, ctime, inode, mode. */
  sig: string;
  size: number;
  mode: number;
  /** Names the file has (hard links): a file with more than one is never copied into a checkpoint (checkpointer.ts). */
  links: number;
}

export interface WalkRules {
  /** Left out with everything below it (ignored, `.git`, the state folder). */
  skip(rel: string, isDir: boolean): boolean;
}

/** Folders read at once. */
const BATCH = 16;

export function rowOf(st: Stats): StatRow | undefined {
  const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : undefined;
  if (!kind) return undefined; // sockets, fifos, devices: nothing to restore
  const mode = st.mode & 0o7777;
  // A folder's times change with its entries, judged one by one: only its existence and mode count.
  const sig = kind === 'dir' ? `dir:${mode}` : `${kind}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${mode}`;
  return { kind, sig, size: st.size, mode, links: st.nlink };
}

/**
 * Every path under `root` the rules keep, with its stat row; breadth first, folders read in batches and
 * paths stat'ed in batches, giving the event loop a turn between them: 20,000 stats started at once held
 * a VS Code extension host for seconds (test/inhost/suite/firstCheckpoint.inhost.ts).
 */
export async function statWorkspace(root: string, rules: WalkRules, under = '', signal?: AbortSignal): Promise<Map<string, StatRow>> {
  const out = new Map<string, StatRow>();
  const slicer = new TimeSlicer(signal);
  let level = [under];
  while (level.length > 0) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += BATCH) {
      const dirs = level.slice(i, i + BATCH);
      const listings = await Promise.all(dirs.map((d) => fsp.readdir(path.join(root, d), { withFileTypes: true }).catch(() => [])));
      const kept: string[] = [];
      for (let k = 0; k < dirs.length; k++) {
        for (const d of listings[k]!) {
          const rel = dirs[k] ? `${dirs[k]}/${d.name}` : d.name;
          await slicer.turn();
          if (rules.skip(rel, d.isDirectory())) continue;
          if (d.isDirectory()) next.push(rel);
          kept.push(rel);
        }
      }
      await statInBatches(root, kept, out, slicer);
    }
    level = next;
  }
  return out;
}

/** Adds the rows of `rels` to `out`, STAT_BATCH stats at a time; a path that vanished meanwhile is left out. */
async function statInBatches(root: string, rels: readonly string[], out: Map<string, StatRow>, slicer: TimeSlicer): Promise<void> {
  for (let i = 0; i < rels.length; i += STAT_BATCH) {
    const batch = rels.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(batch.map((rel) => fsp.lstat(path.join(root, rel)).catch(() => undefined)));
    batch.forEach((rel, k) => {
      const row = stats[k] && rowOf(stats[k]);
      if (row) out.set(rel, row);
    });
    await slicer.turn();
  }
}

/** One path's row, or undefined when it does not exist (or is no file, link or folder). */
export function statPath(root: string, rel: string): StatRow | undefined {
  try {
    return rowOf(lstatSync(path.join(root, rel)));
  } catch {
    return undefined;
  }
}

/** The bytes a path's state is hashed from: a file's content, a link's target. */
export function readBytes(root: string, rel: string, kind: FileState['kind']): Buffer {
  const abs = path.join(root, rel);
  return kind === 'link' ? Buffer.from(readlinkSync(abs), 'utf8') : kind === 'file' ? readFileSync(abs) : Buffer.alloc(0);
}

/**
 * The rows of a listing the repository made (`git ls-files`: tracked and untracked files, none
 * ignored), with every folder above them: no folder is read and no ignore rule matched per file. An
 * entry that is a folder on disk (a nested repository, `sub/`) is walked with the full rules.
 */
export async function statListed(
  root: string,
  listed: readonly string[],
  rules: { listed: WalkRules; walked: WalkRules },
  signal?: AbortSignal,
): Promise<Map<string, StatRow>> {
  const slicer = new TimeSlicer(signal);
  const paths = new Set<string>();
  /** Folders that hold a listed entry; a listed entry that is a folder on disk but holds none is a nested repository. */
  const parents = new Set<string>();
  for (const entry of listed) {
    const rel = entry.endsWith('/') ? entry.slice(0, -1) : entry;
    if (!rel || rules.listed.skip(rel, entry.endsWith('/'))) continue;
    paths.add(rel);
    for (let i = rel.lastIndexOf('/'); i > 0 && !parents.has(rel.slice(0, i)); i = rel.lastIndexOf('/', i - 1)) {
      parents.add(rel.slice(0, i));
      paths.add(rel.slice(0, i));
    }
    await slicer.turn();
  }
  const out = new Map<string, StatRow>();
  const folders: string[] = [];
  const all = [...paths];
  for (let i = 0; i < all.length; i += STAT_BATCH) {
    const batch = all.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(batch.map((rel) => fsp.lstat(path.join(root, rel)).catch(() => undefined)));
    batch.forEach((rel, k) => {
      const row = stats[k] && rowOf(stats[k]);
      if (!row) return; // vanished since the listing
      out.set(rel, row);
      if (row.kind === 'dir' && !parents.has(rel)) folders.push(rel);
    });
    await slicer.turn();
  }
  for (const folder of folders) for (const [rel, row] of await statWorkspace(root, rules.walked, folder, signal)) out.set(rel, row);
  return out;
}

const STAT_BATCH = 256;
