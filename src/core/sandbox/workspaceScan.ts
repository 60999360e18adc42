/**
 * One breadth-first walk of the workspace that finds what a command must not read or change:
 * `.patchpilotignore`d (and denyPaths) entries, protected entries (editor, git, CI, package-manager
 * and agent config, wherever they are), and other names (hard links) of ignored files. The sandbox
 * masks and binds what it finds; the protected guard compares two views (two walks, or one brought up to date from the change feed) to catch what a command
 * created. Breadth first, so a budget cut keeps the shallow (most likely read) paths.
 * Links are never followed; `.git` at the root is not walked (its executing parts are listed apart).
 */
import { promises as fs, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { TimeSlicer } from '../base/timeSlicer';
import { isGitDirPartName, namesFormGitDir } from '../policy/path/bareRepo';

export interface ScannedEntry {
  /** Workspace-relative POSIX path. */
  rel: string;
  type: 'file' | 'dir' | 'link' | 'other';
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  dev: number;
  ino: number;
  nlink: number;
  mode: number;
}

export interface ScanRules {
  /** `.patchpilotignore` and denyPaths: never readable from a command. */
  isIgnored(rel: string, isDir: boolean): boolean;
  /** Protected paths: never changed by a command (an entry inside a protected folder is protected too). */
  isProtected(rel: string, isDir: boolean): boolean;
  /** Left out of the walk entirely (the history database PatchPilot itself writes during a command). */
  isOwnState?(rel: string): boolean;
}

export interface WorkspaceScan {
  /** Top-most ignored entries (a folder is masked whole). */
  ignored: ScannedEntry[];
  /** Every ignored file, also those inside ignored folders (bounded): their inodes and contents are secrets. */
  ignoredFiles: ScannedEntry[];
  /** Top-most protected entries. */
  protectedTop: ScannedEntry[];
  /** Every protected entry, top-most and inside, by path: what the guard compares. */
  protectedAll: Map<string, ScannedEntry>;
  /** Files outside the ignored set that share an inode with an ignored file (hard links). */
  linkedToIgnored: ScannedEntry[];
  /** The walk stopped at the entry budget: deeper paths were not looked at. */
  truncated: boolean;
  entries: number;
  /** The root `.git` is a real folder (not a gitfile or a link). */
  gitDir?: boolean;
}

export const DEFAULT_SCAN_BUDGET = 200_000;
const READ_BATCH = 32;

/** A folder to read: its entries (only the named ones, when `only` is given), with whether it lies inside a protected folder. */
export interface ScanStart {
  dir: string;
  inProtected: boolean;
  only?: ReadonlySet<string>;
}

/**
 * The walk, from the root or (`starts`) from some entries only: the protected guard on the change feed
 * rescans just the paths a step changed, with the same rules. `sharedInodes`: inodes of ignored files
 * with several names already known, whose other names are looked for among the plain files walked.
 */
export async function scanWorkspace(
  root: string,
  rules: ScanRules,
  budget = DEFAULT_SCAN_BUDGET,
  starts: readonly ScanStart[] = [{ dir: '', inProtected: false }],
  sharedInodes: ReadonlySet<string> = new Set(),
): Promise<WorkspaceScan> {
  const scan: WorkspaceScan = { ignored: [], ignoredFiles: [], protectedTop: [], protectedAll: new Map(), linkedToIgnored: [], truncated: false, entries: 0 };
  // Plain files are not stat'ed (one readdir per folder is the whole cost of most of the tree); their
  // names are kept in case an ignored file turns out to have other names (nlink > 1).
  const plainFiles: string[] = [];
  const stat = async (rel: string) => {
    try {
      return toEntry(rel, await fs.lstat(path.join(root, rel)));
    } catch {
      return undefined; // vanished meanwhile
    }
  };
  let level: ScanStart[] = [...starts];
  // A level of a large workspace holds thousands of entries, each matched against the rules: the event loop gets its turns.
  const slicer = new TimeSlicer();
  while (level.length > 0 && !scan.truncated) {
    const next: ScanStart[] = [];
    const listings = await readLevel(root, level);
    for (const [index, { dir: dirRel, inProtected, only }] of level.entries()) {
      await slicer.turn();
      const dirents = listings[index];
      if (!dirents) continue; // vanished or unreadable: nothing in it to mask
      dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      // A folder with git's own layout is a repository to git, whatever its name (attacks.git): its parts are protected.
      const layout = dirRel !== '.git' && namesFormGitDir(new Set(dirents.map((d) => d.name)));
      for (const d of dirents) {
        if (only && !only.has(d.name)) continue;
        if (++scan.entries > budget) {
          scan.truncated = true;
          break;
        }
        const rel = dirRel ? `${dirRel}/${d.name}` : d.name;
        if (rules.isOwnState?.(rel)) continue;
        const isDir = d.isDirectory();
        if (rules.isIgnored(rel, isDir)) {
          const entry = await stat(rel);
          if (!entry) continue;
          scan.ignored.push(entry);
          if (entry.type === 'file') scan.ignoredFiles.push(entry);
          else if (entry.type === 'dir')
            scan.ignoredFiles.push(...(await listTree(root, rel, { budget: IGNORED_DIR_BUDGET })).filter((e) => e.type === 'file'));
          continue;
        }
        const isProtected = inProtected || (layout && isGitDirPartName(d.name)) || rules.isProtected(rel, isDir);
        if (isProtected) {
          const entry = await stat(rel);
          if (!entry) continue;
          scan.protectedAll.set(rel, entry);
          if (!inProtected) scan.protectedTop.push(entry);
        } else if (d.isFile()) plainFiles.push(rel);
        // The root .git is git's own business (objects, refs, index change with every commit); its
        // executing parts are listed apart (GIT_EXEC_PARTS). A nested .git is protected as a whole.
        if (isDir && rel !== '.git') next.push({ dir: rel, inProtected: isProtected });
      }
      if (scan.truncated) break;
    }
    level = next;
  }
  await findLinkedToIgnored(scan, plainFiles, sharedInodes, stat);
  return scan;
}

/**
 * The folders of one level, read a batch at a time: the walk is bound by I/O latency, and results
 * are still handled in order, so the walk stays deterministic. Undefined: vanished or unreadable.
 */
async function readLevel(root: string, level: readonly ScanStart[]): Promise<(Dirent[] | undefined)[]> {
  const listings: (Dirent[] | undefined)[] = [];
  for (let i = 0; i < level.length; i += READ_BATCH) {
    const batch = level.slice(i, i + READ_BATCH).map(({ dir }) => fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => undefined));
    listings.push(...(await Promise.all(batch)));
  }
  return listings;
}

/** Other names of ignored files (hard links), among the protected and the plain files walked. */
async function findLinkedToIgnored(
  scan: WorkspaceScan,
  plainFiles: readonly string[],
  sharedInodes: ReadonlySet<string>,
  stat: (rel: string) => Promise<ScannedEntry | undefined>,
): Promise<void> {
  // Only an ignored file with several names has twins to find: then the plain files get a stat each.
  const shared = new Set([...sharedInodes, ...scan.ignoredFiles.filter((e) => e.nlink > 1).map(inodeKey)]);
  if (shared.size === 0) return;
  const protectedTwins = [...scan.protectedAll.values()].filter((e) => e.type === 'file' && shared.has(inodeKey(e)));
  scan.linkedToIgnored.push(...protectedTwins);
  for (const rel of plainFiles) {
    const entry = await stat(rel);
    if (entry?.type === 'file' && shared.has(inodeKey(entry))) scan.linkedToIgnored.push(entry);
  }
}

const IGNORED_DIR_BUDGET = 5000;

/**
 * `rel` and everything below it (links not followed, at most `budget` entries, a subtree left out
 * where `skip` says so): the files of an ignored folder, the executing parts of `.git`.
 */
export async function listTree(root: string, rel: string, options: { budget: number; skip?: (rel: string) => boolean }): Promise<ScannedEntry[]> {
  const out: ScannedEntry[] = [];
  const visit = async (current: string): Promise<void> => {
    if (out.length >= options.budget || options.skip?.(current)) return;
    const st = await fs.lstat(path.join(root, current)).catch(() => undefined);
    if (!st) return;
    out.push(toEntry(current, st));
    if (!st.isDirectory()) return;
    const names = await fs.readdir(path.join(root, current)).catch(() => [] as string[]);
    for (const name of names.sort()) await visit(`${current}/${name}`);
  };
  await visit(rel);
  return out;
}

export function inodeKey(e: { dev: number; ino: number }): string {
  return `${e.dev}:${e.ino}`;
}

export function toEntry(rel: string, st: Stats): ScannedEntry {
  const type = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  return { rel, type, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, dev: st.dev, ino: st.ino, nlink: st.nlink, mode: st.mode };
}

/**
 * The parts of the root repository's `.git` that make git run something or change what it shows
 * (attacks.git, attacks.guard): config (fsmonitor, pagers, filters, aliases), hooks, info/ (attributes, exclude),
 * commondir and gitdir (redirect git to a planted config), submodule and worktree git folders.
 */
export const GIT_EXEC_PARTS = ['config', 'config.worktree', 'commondir', 'gitdir', 'hooks', 'info', 'modules', 'worktrees', 'objects/info/alternates'];
