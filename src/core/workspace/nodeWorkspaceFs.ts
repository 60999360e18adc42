import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { confinePath } from '../patch/confine';
import { commitAtomically, nodeIo, type AtomicIo, type WriteOp } from '../patch/atomicWrite';
import { writeConfined } from '../policy/path/confined-io';
import { WorkspacePathError, type WorkspaceChange, type WorkspaceDirEntry, type WorkspaceFs, type WorkspaceStat } from '../ports/workspaceFs';

/**
 * The CLI's (and every plain-Node caller's) WorkspaceFs. It adds no writer of its own:
 * - every path goes through confinePath (no `..`, no absolute path, no link that leads outside);
 * - applyChanges is the PatchManager's all-or-nothing writer (temp file + fsync + rename per file,
 *   rollback of every file on failure), after re-confining each path and checking that its real
 *   location is still the one seen at stat time;
 * - writeFile is policy/path's writeConfined (walks from the root with O_NOFOLLOW, atomic rename).
 */
export class NodeWorkspaceFs implements WorkspaceFs {
  private rootReal?: Promise<string>;

  constructor(
    readonly root: string,
    /** File-system calls of the atomic writer (tests inject failures). */
    private readonly io: AtomicIo = nodeIo,
  ) {}

  /** The root's real path; rejects when the root cannot be read. */
  realRoot(): Promise<string> {
    return (this.rootReal ??= realpath(this.root).catch((e: Error) => {
      this.rootReal = undefined;
      throw new WorkspacePathError(`workspace root ${this.root} cannot be read: ${e.message}`);
    }));
  }

  private async confine(rel: string): Promise<{ real: string; exists: boolean }> {
    const c = await confinePath(await this.realRoot(), rel).catch((e: Error) => ({ ok: false as const, reason: e.message }));
    if (!c.ok) throw new WorkspacePathError(c.reason);
    return c;
  }

  async stat(rel: string): Promise<WorkspaceStat> {
    const c = await this.confine(rel);
    if (!c.exists) return { exists: false, realPath: c.real };
    const st = await stat(c.real);
    const type = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
    return { exists: true, type, size: st.size, mode: st.mode & 0o7777, mtimeMs: st.mtimeMs, realPath: c.real };
  }

  async readFile(rel: string): Promise<Uint8Array> {
    const c = await this.confine(rel);
    return readFile(c.real);
  }

  async list(rel: string): Promise<WorkspaceDirEntry[]> {
    const dir = rel === '' || rel === '.' ? await this.realRoot() : (await this.confine(rel)).real;
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, type: e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other', ...(e.isSymbolicLink() ? { symlink: true } : {}) }));
  }

  async writeFile(rel: string, content: string): Promise<void> {
    await writeConfined(this.root, rel, content, { mkdirs: true });
  }

  async applyChanges(changes: readonly WorkspaceChange[]): Promise<void> {
    const ops: WriteOp[] = [];
    // Re-check just before writing: a link swapped in since the read must not redirect a write.
    for (const c of changes) {
      const again = await confinePath(await this.realRoot(), c.path);
      if (!again.ok || (c.expectRealPath !== undefined && again.real !== c.expectRealPath)) throw new Error(`${c.path} changed on disk while the patch was computed`);
      ops.push(c.kind === 'write' ? { kind: 'write', path: again.real, content: c.content, ...(c.mode !== undefined ? { mode: c.mode } : {}) } : { kind: 'delete', path: again.real });
    }
    // Writes before deletes, as the PatchManager always ordered them (a rename writes the new path first).
    await commitAtomically([...ops.filter((o) => o.kind === 'write'), ...ops.filter((o) => o.kind === 'delete')], this.io);
  }
}

/** `path.relative` with forward slashes, for callers that hold absolute paths. */
export function toWorkspaceRelative(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}
