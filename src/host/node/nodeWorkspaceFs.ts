import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { commitConfined, confinePath, nodeIo, type AtomicIo, type ConfinedChange } from '../../core/policy';
import { WorkspacePathError, type WorkspaceChange, type WorkspaceDirEntry, type WorkspaceFs, type WorkspaceStat } from '../../core/ports';

/**
 * The CLI's (and every plain-Node caller's) WorkspaceFs. It adds no writer of its own:
 * - every path goes through policy/path's confinePath (the real location, inside the workspace,
 *   not through a link that leads out or to nothing);
 * - writeFile and applyChanges are policy/path's one confined commit, the path write_file takes
 *   too: each folder walked from the root without following links, temp file + fsync + rename,
 *   all or nothing with rollback; applyChanges first re-confines each path and checks that its
 *   real location is still the one seen at stat time.
 */
export class NodeWorkspaceFs implements WorkspaceFs {
  private rootReal?: Promise<string>;

  constructor(
    readonly root: string,
    /** File-system steps of the confined commit (tests inject failures). */
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
    const c = isRoot(rel) ? { real: await this.realRoot(), exists: true } : await this.confine(rel);
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
    const dir = isRoot(rel) ? await this.realRoot() : (await this.confine(rel)).real;
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.map((e) => ({
      name: e.name,
      type: e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other',
      ...(e.isSymbolicLink() ? { symlink: true } : {}),
    }));
  }

  async writeFile(rel: string, content: string): Promise<void> {
    const c = await this.confine(rel);
    await commitConfined(this.root, [{ kind: 'write', path: c.real, content }], { mkdirs: true, io: this.io });
  }

  async applyChanges(changes: readonly WorkspaceChange[]): Promise<void> {
    const ops: ConfinedChange[] = [];
    // Re-check just before writing: a link swapped in since the read must not redirect a write.
    for (const c of changes) {
      const again = await confinePath(await this.realRoot(), c.path);
      if (!again.ok || (c.expectRealPath !== undefined && again.real !== c.expectRealPath))
        throw new Error(`${c.path} changed on disk while the patch was computed`);
      ops.push(
        c.kind === 'write'
          ? { kind: 'write', path: again.real, content: c.content, ...(c.mode !== undefined ? { mode: c.mode } : {}) }
          : { kind: 'delete', path: again.real },
      );
    }
    // Writes before deletes, as the PatchManager always ordered them (a rename writes the new path first).
    await commitConfined(this.root, [...ops.filter((o) => o.kind === 'write'), ...ops.filter((o) => o.kind === 'delete')], { mkdirs: true, io: this.io });
  }
}

/** The root itself: confinePath refuses it (nothing to write there), but it can be listed and stat'ed. */
function isRoot(rel: string): boolean {
  return rel === '' || rel === '.';
}

/** `path.relative` with forward slashes, for callers that hold absolute paths. */
export function toWorkspaceRelative(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}
