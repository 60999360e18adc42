/**
 * (attacks.guard) what a command may not read or change, made true around each command.
 *
 * Before: one walk of the workspace (workspaceScan). In the sandbox, existing protected entries are
 * bound read-only (a mount point also cannot be renamed or deleted), the root `.git` is bound onto
 * itself (so it cannot be swapped for a copy) with its executing parts read-only, and ignored files
 * and their hard links are masked (empty), so no reader, however it names the file, gets the bytes.
 * After: a second walk. A protected path that did not exist before (a new `.vscode/tasks.json`,
 * `.envrc`, a CI workflow, `.git/commondir`, a bare-repository layout) is moved aside into
 * `.patchpilot/quarantine/`, never deleted; without a sandbox, a protected file that was changed or
 * deleted gets its bytes back. Every such change is reported to the caller (the model and the audit).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createProtectedTest, type ProtectedGlob } from '../path/protectedPaths';
import { GIT_EXEC_PARTS, inodeKey, listTree, scanWorkspace, toEntry, type ScannedEntry, type WorkspaceScan } from './workspaceScan';
import { SecretRedactor } from './secretRedactor';

/** The checkpoint store's folder in the state folder (src/core/checkpoint/checkpointStore.ts says the same). */
const CHECKPOINTS_DIR = 'checkpoints';

export interface GuardOptions {
  /** Real path of the workspace root. */
  root: string;
  /**
   * `.patchpilotignore` and denyPaths, for workspace-relative POSIX paths: a predicate made once per
   * walk (so the ignore file is read once, not once per entry).
   */
  ignored(): (rel: string, isDir: boolean) => boolean;
  /** patchpilot.policy.protectedPaths and the MCP launch files (added to the defaults). */
  protectedGlobs?: readonly ProtectedGlob[];
  /** The state folder, workspace-relative (default `.patchpilot`): its history files change during commands. */
  stateDir?: string;
  /** The history database's file name in the state folder (default `history.db`): it, its backup, lock and temp files are PatchPilot's own. */
  stateFile?: string;
  /** Keep the bytes of protected files so that changes can be undone (needed without a sandbox). */
  keepBytes?: boolean;
  budget?: number;
}

export interface ProtectedChange {
  path: string;
  change: 'created' | 'modified' | 'deleted';
  /** moved-aside: into the quarantine folder; restored: original bytes back; reported: could not be undone. */
  action: 'moved-aside' | 'restored' | 'reported';
  movedTo?: string;
}

const MAX_KEPT_FILE = 1024 * 1024;
const MAX_KEPT_TOTAL = 16 * 1024 * 1024;
const QUARANTINE = 'quarantine';

export class GuardSession {
  private constructor(
    private readonly options: GuardOptions,
    readonly scan: WorkspaceScan,
    private readonly kept: Map<string, Buffer>,
    readonly redactor: SecretRedactor,
  ) {}

  static async begin(options: GuardOptions): Promise<GuardSession> {
    const scan = await scanWithGitParts(options);
    const kept = new Map<string, Buffer>();
    if (options.keepBytes) {
      let total = 0;
      for (const e of scan.protectedAll.values()) {
        if (e.type !== 'file' || e.size > MAX_KEPT_FILE || total + e.size > MAX_KEPT_TOTAL) continue;
        try {
          kept.set(e.rel, await fs.readFile(path.join(options.root, e.rel)));
          total += e.size;
        } catch {
          /* vanished */
        }
      }
    }
    const redactor = await SecretRedactor.fromFiles(options.root, scan.ignoredFiles);
    return new GuardSession(options, scan, kept, redactor);
  }

  /**
   * bwrap arguments, to follow the workspace bind: protected entries read-only, the root `.git`
   * pinned with its executing parts read-only, then ignored entries and their hard links masked.
   */
  sandboxMounts(): string[] {
    const { root } = this.options;
    const args: string[] = [];
    const abs = (rel: string) => path.join(root, rel);
    for (const e of this.scan.protectedTop) {
      if (e.type === 'dir' || e.type === 'file') args.push('--ro-bind', abs(e.rel), abs(e.rel));
    }
    if (this.scan.gitDir) args.push('--bind', abs('.git'), abs('.git'));
    for (const part of GIT_EXEC_PARTS) {
      const e = this.scan.protectedAll.get(`.git/${part}`);
      if (e && (e.type === 'dir' || e.type === 'file')) args.push('--ro-bind', abs(e.rel), abs(e.rel));
    }
    for (const e of [...this.scan.ignored, ...this.scan.linkedToIgnored]) {
      if (e.type === 'dir') args.push('--tmpfs', abs(e.rel));
      else if (e.type === 'file' || e.type === 'other') args.push('--ro-bind', '/dev/null', abs(e.rel));
      // A link to an ignored file resolves to the masked target; a link elsewhere is the path policy's business.
    }
    return args;
  }

  /** Compares with a fresh walk; moves new protected entries aside and, when bytes were kept, restores changed ones. */
  async end(): Promise<ProtectedChange[]> {
    const after = await scanWithGitParts(this.options);
    const before = this.scan.protectedAll;
    const changes: ProtectedChange[] = [];
    const created = [...after.protectedAll.values()].filter((e) => !before.has(e.rel));
    // Only the top-most new entry of a new folder is moved: its insides go with it.
    const createdTop = created.filter((e) => !created.some((p) => p !== e && e.rel.startsWith(`${p.rel}/`)));
    let quarantine: string | undefined;
    for (const e of createdTop) {
      quarantine ??= await this.quarantineFolder();
      const target = path.join(quarantine, e.rel);
      try {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(path.join(this.options.root, e.rel), target);
        changes.push({ path: e.rel, change: 'created', action: 'moved-aside', movedTo: path.relative(this.options.root, target).split(path.sep).join('/') });
      } catch {
        changes.push({ path: e.rel, change: 'created', action: 'reported' });
      }
    }
    for (const [rel, was] of before) {
      const now = after.protectedAll.get(rel);
      if (now && sameEntry(was, now)) continue;
      if (was.type === 'dir' && now?.type === 'dir') continue; // a folder's own times change with its entries, judged one by one
      const change = now ? 'modified' : 'deleted';
      const bytes = this.kept.get(rel);
      if (bytes && was.type === 'file' && (await this.restore(rel, bytes, was.mode))) changes.push({ path: rel, change, action: 'restored' });
      else changes.push({ path: rel, change, action: 'reported' });
    }
    return changes;
  }

  private async quarantineFolder(): Promise<string> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    return path.join(this.options.root, this.options.stateDir ?? '.patchpilot', QUARANTINE, stamp);
  }

  private async restore(rel: string, bytes: Buffer, mode: number): Promise<boolean> {
    const target = path.join(this.options.root, rel);
    try {
      const st = await fs.lstat(target).catch(() => undefined);
      // Whatever stands there now (a link, a folder, other bytes) goes aside first, never followed.
      if (st && (st.isSymbolicLink() || !st.isFile())) await fs.rm(target, { recursive: true, force: true });
      await fs.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.patchpilot-restore-${process.pid}`;
      await fs.writeFile(tmp, bytes, { mode: mode & 0o7777, flag: 'wx' });
      await fs.rename(tmp, target);
      return true;
    } catch {
      return false;
    }
  }
}

function sameEntry(a: ScannedEntry, b: ScannedEntry): boolean {
  return a.type === b.type && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && inodeKey(a) === inodeKey(b) && a.mode === b.mode;
}

/** The workspace walk plus the root `.git`'s executing parts (its other contents change with every commit). */
async function scanWithGitParts(options: GuardOptions): Promise<WorkspaceScan> {
  const isProtected = createProtectedTest(options.protectedGlobs ?? []);
  const state = options.stateDir ?? '.patchpilot';
  const scan = await scanWorkspace(
    options.root,
    {
      isIgnored: options.ignored(),
      isProtected: (rel, isDir) => rel !== '.git' && isProtected(rel, isDir),
      isOwnState: (rel) => {
        if (!rel.startsWith(`${state}/`)) return false;
        const inside = rel.slice(state.length + 1);
        // The database and its companions, the folder's own .gitignore (written at the first save,
        // maybe during a command) and the quarantine are written by PatchPilot, not by the command.
        // The checkpoint store (written between commands, never during one) is left out too: walking and keeping
        // its blobs would make every command pay for the store's size; a restore checks each blob's hash instead.
        return (
          inside.startsWith(options.stateFile ?? 'history.db') ||
          inside === '.gitignore' ||
          inside.startsWith(QUARANTINE) ||
          inside === CHECKPOINTS_DIR ||
          inside.startsWith(`${CHECKPOINTS_DIR}/`)
        );
      },
    },
    options.budget,
  );
  const git = await fs.lstat(path.join(options.root, '.git')).catch(() => undefined);
  if (git?.isDirectory()) {
    scan.gitDir = true;
    // A submodule's objects under .git/modules are data, not config.
    const skip = (rel: string) => rel.startsWith('.git/modules/') && rel.endsWith('/objects');
    for (const part of GIT_EXEC_PARTS) for (const e of await listTree(options.root, `.git/${part}`, { budget: 2000, skip })) scan.protectedAll.set(e.rel, e);
  } else if (git) {
    // A gitfile (worktree, submodule) or a link: the whole name is protected like any other.
    scan.protectedAll.set('.git', toEntry('.git', git));
  }
  return scan;
}

/** What the model is told after a command touched protected paths. */
export function describeProtectedChanges(changes: readonly ProtectedChange[]): string {
  if (changes.length === 0) return '';
  const lines = changes.map((c) =>
    c.action === 'moved-aside'
      ? `- ${c.path}: created by the command; moved aside to ${c.movedTo}`
      : c.action === 'restored'
        ? `- ${c.path}: ${c.change} by the command; its original content was restored`
        : `- ${c.path}: ${c.change} by the command; could not be undone`,
  );
  return `PatchPilot: commands may not create or change protected paths (editor, git, CI, package-manager, agent config, environment files). Propose such a change with write_file or propose_patch, which asks the user.\n${lines.join('\n')}`;
}
