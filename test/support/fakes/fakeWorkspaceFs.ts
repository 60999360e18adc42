// An in-memory WorkspaceFs for unit tests: files by workspace-relative path, "dirty" buffers that
// differ from the "disk", and a record of every write. Paths outside the workspace are refused.
import { WorkspacePathError, type WorkspaceChange, type WorkspaceDirEntry, type WorkspaceFs, type WorkspaceStat } from '../../../src/core/ports';

export class FakeWorkspaceFs implements WorkspaceFs {
  readonly disk = new Map<string, string>();
  /** Unsaved editor text by path: reads see it, as in VS Code. */
  readonly buffers = new Map<string, string>();
  readonly writes: WorkspaceChange[][] = [];
  /** Make the next applyChanges fail (a save refused by the editor). */
  failNextWrite?: string;

  constructor(
    files: Record<string, string> = {},
    readonly root = '/fake-workspace',
  ) {
    for (const [p, t] of Object.entries(files)) this.disk.set(p, t);
  }

  /** An in-memory workspace has no links: its root is what it is called. */
  async realRoot(): Promise<string> {
    return this.root;
  }

  private check(p: string): string {
    const rel = p.replace(/^\.\//, '');
    if (rel.startsWith('/') || rel.split('/').includes('..')) throw new WorkspacePathError(`path "${p}" is outside the workspace`);
    return rel;
  }

  text(p: string): string | undefined {
    const rel = this.check(p);
    return this.buffers.get(rel) ?? this.disk.get(rel);
  }

  async stat(p: string): Promise<WorkspaceStat> {
    const rel = this.check(p);
    const t = this.text(rel);
    if (t !== undefined) return { exists: true, type: 'file', size: Buffer.byteLength(t), mode: 0o644, mtimeMs: 0, dirty: this.buffers.has(rel) };
    const prefix = rel === '' || rel === '.' ? '' : `${rel}/`;
    if ([...this.disk.keys()].some((k) => k.startsWith(prefix))) return { exists: true, type: 'directory', size: 0, mode: 0o755, mtimeMs: 0 };
    return { exists: false };
  }

  async readFile(p: string): Promise<Uint8Array> {
    const t = this.text(p);
    if (t === undefined) throw new Error(`ENOENT: ${p}`);
    return Buffer.from(t, 'utf8');
  }

  async list(p: string): Promise<WorkspaceDirEntry[]> {
    const rel = this.check(p);
    const prefix = rel === '' || rel === '.' ? '' : `${rel}/`;
    const out = new Map<string, WorkspaceDirEntry>();
    for (const k of this.disk.keys()) {
      if (!k.startsWith(prefix)) continue;
      const [name, ...rest] = k.slice(prefix.length).split('/');
      out.set(name!, { name: name!, type: rest.length ? 'directory' : 'file' });
    }
    return [...out.values()];
  }

  async writeFile(p: string, content: string): Promise<void> {
    await this.applyChanges([{ kind: 'write', path: p, content }]);
  }

  async applyChanges(changes: readonly WorkspaceChange[]): Promise<void> {
    for (const c of changes) this.check(c.path);
    if (this.failNextWrite) {
      const why = this.failNextWrite;
      this.failNextWrite = undefined;
      throw new Error(why);
    }
    this.writes.push([...changes]);
    for (const c of changes) {
      this.buffers.delete(c.path);
      if (c.kind === 'write') this.disk.set(c.path, c.content);
      else this.disk.delete(c.path);
    }
  }
}
