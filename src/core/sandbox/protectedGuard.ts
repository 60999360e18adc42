/**
 * (attacks.guard) what a command may not read or change, made true around each command.
 *
 * Before: one walk of the workspace (workspaceScan), or, with a baseline on the change feed
 * (guardBaseline), the last view brought up to date from the paths that changed since. In the sandbox, existing protected entries are
 * bound read-only (a mount point also cannot be renamed or deleted), the root `.git` is bound onto
 * itself (so it cannot be swapped for a copy) with its executing parts read-only, and ignored files
 * and their hard links are masked (empty), so no reader, however it names the file, gets the bytes.
 * After: a second walk, or only the paths the command changed (the feed) and the few places the feed
 * does not watch (guardScan). A protected path that did not exist before (a new `.vscode/tasks.json`,
 * `.envrc`, a CI workflow, `.git/commondir`, a bare-repository layout) is moved aside into
 * `.patchpilot/quarantine/`, never deleted; without a sandbox, a protected file that was changed or
 * deleted gets its bytes back. Every such change is reported to the caller (the model and the audit).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ProtectedGlob } from '../policy/path/protectedPaths';
import type { FeedCursor } from '../fs/changeFeed';
import { GIT_EXEC_PARTS, inodeKey, type ScannedEntry, type WorkspaceScan } from './workspaceScan';
import { SecretRedactor } from './secretRedactor';
import type { GuardBaseline, ScanMode } from './guardBaseline';
import { QUARANTINE, scanWithGitParts } from './guardScan';

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
  /**
   * The guard's view kept between commands on the workspace's change feed (createAgent makes one per
   * workspace): a command then costs what it changed. Without it, each command walks twice.
   */
  baseline?: GuardBaseline;
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

export class GuardedRun {
  /** How `end` found what the command changed (the feed, or a walk); undefined before it ran. */
  endMode: ScanMode | undefined;

  private constructor(
    private readonly options: GuardOptions,
    readonly scan: WorkspaceScan,
    private readonly kept: Map<string, Buffer>,
    readonly redactor: SecretRedactor,
    /** How `begin` got its view: brought up to date from the feed, or a walk. */
    readonly beginMode: ScanMode,
    private readonly session: FeedCursor | undefined,
  ) {}

  static async begin(options: GuardOptions): Promise<GuardedRun> {
    const current = await options.baseline?.current(options);
    const scan = current?.scan ?? (await scanWithGitParts(options));
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
    return new GuardedRun(options, scan, kept, redactor, current?.mode ?? 'walk', current?.session);
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

  /** Compares with the workspace now (the paths the feed saw change, or a walk); moves new protected entries aside and, when bytes were kept, restores changed ones. */
  async end(): Promise<ProtectedChange[]> {
    const { scan: after, mode } =
      this.session && this.options.baseline
        ? await this.options.baseline.after(this.options, this.scan, this.session)
        : { scan: await scanWithGitParts(this.options), mode: 'walk' as const };
    this.endMode = mode;
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
