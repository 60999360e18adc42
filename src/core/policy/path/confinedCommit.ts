/**
 * The one confined write path: write_file (writeConfined) and the PatchManager (NodeWorkspaceFs)
 * both end here. Several files change all or nothing:
 *   1. every parent folder is opened by walking from the workspace root without following links
 *      (confinedWalk.ts), and what each target holds now is kept for a rollback;
 *   2. every new content goes to a temp file next to its target and is fsynced (fs/atomicFile.ts);
 *   3. only then, each folder re-checked to be still inside the workspace, the temps are renamed
 *      over their targets (a link or hard link at a target is replaced, never written through) and
 *      deletions happen; the folders are fsynced.
 * If any step fails, every file already changed is put back (bytes and mode, a replaced link as a
 * link), created files and folders are removed, and the error says so.
 */
import { lstatSync, mkdirSync, readFileSync, readlinkSync, rmdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../base';
import { fsyncDirSync, renameSync, tempPathFor, writeTempSync } from '../../fs/atomicFile';
import { ConfinementError, HAS_PROC_FD, assertStillInside, locate, openParentDir, type Target } from './confinedWalk';

export type ConfinedChange =
  | {
      kind: 'write';
      path: string;
      content: string | Uint8Array;
      /** Exact mode; default: an existing file keeps its own, a new one gets the umask's. */ mode?: number;
    }
  | { kind: 'delete'; path: string };

/** The commit's file-system steps, replaceable so tests can make one fail mid-way. */
export interface AtomicIo {
  writeTemp(file: string, data: string | Uint8Array, mode?: number): void | Promise<void>;
  rename(from: string, to: string): void | Promise<void>;
  unlink(file: string): void | Promise<void>;
}

export const nodeIo: AtomicIo = {
  writeTemp: (file, data, mode) => writeTempSync(file, data, mode),
  rename: (from, to) => renameSync(from, to),
  unlink: (file) => unlinkSync(file),
};

/** An opened parent folder: a path that reaches it without following links, and its re-check. */
interface Folder {
  /** `/proc/self/fd/N` on Linux (the kernel resolves it from the open folder), the real path elsewhere. */
  at: string;
  stillInside(): Promise<void>;
  close(): Promise<void>;
}

type Original = { kind: 'none' } | { kind: 'file'; bytes: Buffer; mode: number } | { kind: 'link'; target: string };

interface Slot {
  change: ConfinedChange;
  t: Target;
  folder: Folder;
  original: Original;
  temp?: string;
  committed: boolean;
}

/** Commits the changes all or nothing; returns each change's real path. Writes before deletes is the caller's order to choose. */
export async function commitConfined(
  workspaceRoot: string,
  changes: readonly ConfinedChange[],
  options: { mkdirs?: boolean; io?: AtomicIo } = {},
): Promise<string[]> {
  const io = options.io ?? nodeIo;
  const folders = new Map<string, Folder>();
  const created: string[] = [];
  const slots: Slot[] = [];
  try {
    try {
      for (const change of changes) {
        const t = await locate(workspaceRoot, change.path);
        const key = t.parentParts.join('/');
        let folder = folders.get(key);
        if (!folder) {
          folder = await openFolder(t, change.kind === 'write' && (options.mkdirs ?? false), created);
          folders.set(key, folder);
        }
        slots.push({ change, t, folder, original: snapshot(path.join(folder.at, t.base), t, change), committed: false });
      }
      // Phase 1: every temp file, durable; the targets are untouched so far.
      for (const s of slots) {
        if (s.change.kind !== 'write') continue;
        s.temp = tempPathFor(path.join(s.folder.at, s.t.base), { hidden: true });
        await io.writeTemp(s.temp, s.change.content, s.change.mode ?? (s.original.kind === 'file' ? s.original.mode : undefined));
      }
      // Phase 2: swap them in.
      for (const s of slots) {
        await s.folder.stillInside();
        const target = path.join(s.folder.at, s.t.base);
        if (s.change.kind === 'write') await io.rename(s.temp!, target);
        else await io.unlink(target);
        s.temp = undefined;
        s.committed = true;
      }
      for (const folder of folders.values()) fsyncDirSync(folder.at);
    } catch (e) {
      const problems = rollback(slots, created);
      if (e instanceof ConfinementError && problems.length === 0) throw e;
      const extra = problems.length ? ` Rollback problems: ${problems.join('; ')}` : '';
      throw new Error(`writing the files failed (${errorMessage(e)}); every file was restored.${extra}`);
    }
  } finally {
    for (const folder of folders.values()) await folder.close().catch(() => undefined);
  }
  return slots.map((s) => s.t.realPath);
}

async function openFolder(t: Target, mkdirs: boolean, created: string[]): Promise<Folder> {
  if (HAS_PROC_FD) {
    const dir: FileHandle = await openParentDir(t, mkdirs, created);
    return { at: `/proc/self/fd/${dir.fd}`, stillInside: () => assertStillInside(dir, t), close: () => dir.close() };
  }
  // Elsewhere Node has no openat: the real path, re-checked right before each rename (a short window remains).
  const parent = path.dirname(t.realPath);
  if (mkdirs) {
    const first = mkdirSync(parent, { recursive: true });
    if (first) for (let d = parent; d.length >= first.length; d = path.dirname(d)) created.unshift(d);
  }
  const check = async () => {
    if ((await fs.realpath(parent)) !== parent) throw new ConfinementError(`The parent of "${t.realPath}" changed after the check.`);
  };
  await check();
  return { at: parent, stillInside: check, close: async () => undefined };
}

/** What the target holds now, to put it back. A directory is never replaced or deleted by a file change. */
function snapshot(target: string, t: Target, change: ConfinedChange): Original {
  let st;
  try {
    st = lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      if (change.kind === 'delete') throw new Error(`"${t.realPath}" does not exist`);
      return { kind: 'none' };
    }
    throw e;
  }
  if (st.isSymbolicLink()) {
    // Deleting a link removes the link; writing replaces it (never writes through it).
    return { kind: 'link', target: readlinkSync(target) };
  }
  if (!st.isFile()) throw new ConfinementError(`"${t.realPath}" is ${st.isDirectory() ? 'a directory' : 'not a regular file'}.`);
  return { kind: 'file', bytes: readFileSync(target), mode: st.mode & 0o7777 };
}

/** Puts every committed target back, removes temps and created folders; returns what could not be undone. */
function rollback(slots: Slot[], created: string[]): string[] {
  const problems: string[] = [];
  for (const s of [...slots].reverse()) {
    const target = path.join(s.folder.at, s.t.base);
    try {
      if (s.temp) rmSync(s.temp, { force: true });
      if (!s.committed) continue;
      const o = s.original;
      if (o.kind === 'none') rmSync(target, { force: true });
      else if (o.kind === 'link') {
        rmSync(target, { force: true });
        symlinkSync(o.target, target);
      } else {
        const temp = tempPathFor(target, { hidden: true });
        writeTempSync(temp, o.bytes, o.mode);
        renameSync(temp, target);
      }
    } catch (e) {
      problems.push(`${s.t.realPath}: ${errorMessage(e)}`);
    }
  }
  for (const dir of [...created].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      /* not empty or gone: leave it */
    }
  }
  return problems;
}
