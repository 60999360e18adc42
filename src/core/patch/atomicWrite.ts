import * as fsp from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * All-or-nothing writes of several files. Every new content is first written to a temp file in
 * the target's own folder and fsynced; only then are the temps renamed over the targets (atomic
 * per file on POSIX). If any step fails, every file already changed is put back: original bytes
 * and mode restored, created files and folders removed, deleted files recreated.
 */

export type WriteOp = { kind: 'write'; path: string; content: string; mode?: number } | { kind: 'delete'; path: string };

/** The file-system calls used, injectable so tests can make one of them fail mid-way. */
export interface AtomicIo {
  writeTemp(file: string, data: string | Buffer, mode?: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
}

export const nodeIo: AtomicIo = {
  async writeTemp(file, data, mode) {
    const fh = await fsp.open(file, 'wx', mode ?? 0o666);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (mode !== undefined) await fsp.chmod(file, mode); // the umask must not strip an executable bit
  },
  rename: (a, b) => fsp.rename(a, b),
  unlink: (f) => fsp.unlink(f),
};

interface Snapshot {
  op: WriteOp;
  original: Buffer | null;
  mode?: number;
  temp?: string;
  createdDirs: string[];
  committed: boolean;
}

const tempName = (target: string) => path.join(path.dirname(target), `.${path.basename(target)}.patchpilot-${randomBytes(6).toString('hex')}.tmp`);

async function readOrNull(file: string): Promise<{ bytes: Buffer; mode: number } | null> {
  try {
    const [bytes, st] = await Promise.all([fsp.readFile(file), fsp.stat(file)]);
    return { bytes, mode: st.mode & 0o7777 };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Creates missing folders of `dir`, returning the ones created (outermost first) for rollback. */
async function ensureDir(dir: string): Promise<string[]> {
  const missing: string[] = [];
  let d = dir;
  for (;;) {
    try {
      await fsp.stat(d);
      break;
    } catch {
      missing.unshift(d);
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  for (const m of missing) await fsp.mkdir(m);
  return missing;
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const fh = await fsp.open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* best effort: some file systems refuse fsync on folders */
  }
}

export async function commitAtomically(ops: readonly WriteOp[], io: AtomicIo = nodeIo): Promise<void> {
  const snaps: Snapshot[] = [];
  try {
    for (const op of ops) {
      const orig = await readOrNull(op.path);
      snaps.push({ op, original: orig?.bytes ?? null, mode: orig?.mode, createdDirs: [], committed: false });
    }
    // Phase 1: prepare every temp file; the targets are untouched so far.
    for (const s of snaps) {
      if (s.op.kind !== 'write') continue;
      s.createdDirs = await ensureDir(path.dirname(s.op.path));
      s.temp = tempName(s.op.path);
      await io.writeTemp(s.temp, s.op.content, s.op.mode ?? s.mode);
    }
    // Phase 2: swap them in.
    for (const s of snaps) {
      if (s.op.kind === 'write') await io.rename(s.temp!, s.op.path);
      else await io.unlink(s.op.path);
      s.temp = undefined;
      s.committed = true;
    }
    for (const dir of new Set(snaps.map((s) => path.dirname(s.op.path)))) await fsyncDir(dir);
  } catch (e) {
    const problems = await rollback(snaps);
    const extra = problems.length ? ` Rollback problems: ${problems.join('; ')}` : '';
    throw new Error(`writing the patch failed (${e instanceof Error ? e.message : String(e)}); every file was restored.${extra}`);
  }
}

async function rollback(snaps: Snapshot[]): Promise<string[]> {
  const problems: string[] = [];
  for (const s of [...snaps].reverse()) {
    try {
      if (s.temp) await fsp.rm(s.temp, { force: true });
      if (s.committed) {
        if (s.original === null) await fsp.rm(s.op.path, { force: true });
        else await restore(s.op.path, s.original, s.mode);
      }
      for (const d of [...s.createdDirs].reverse()) await fsp.rmdir(d).catch(() => undefined);
    } catch (e) {
      problems.push(`${s.op.path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return problems;
}

async function restore(file: string, bytes: Buffer, mode?: number): Promise<void> {
  const temp = tempName(file);
  await nodeIo.writeTemp(temp, bytes, mode);
  await fsp.rename(temp, file);
}
