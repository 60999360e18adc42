/**
 * One breadth-first walk of the workspace that finds what a command must not read or change:
 * `.patchpilotignore`d (and denyPaths) entries, protected entries (editor, git, CI, package-manager
 * and agent config, wherever they are), and other names (hard links) of ignored files. The sandbox
 * masks and binds what it finds; the protected guard compares two walks to catch what a command
 * created. Breadth first, so a budget cut keeps the shallow (most likely read) paths.
 * Links are never followed; `.git` at the root is not walked (its executing parts are listed apart).
 */
import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';

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

/**
 * Git takes any folder holding HEAD with objects/ and refs/ (or a commondir) for a repository, and
 * runs what its config says when git is used there (F2). Such parts are protected wherever they are.
 */
const GIT_LAYOUT_PARTS = new Set(['HEAD', 'config', 'config.worktree', 'commondir', 'gitdir', 'objects', 'refs', 'hooks', 'info', 'packed-refs']);

export function isGitDirLayout(names: ReadonlySet<string>): boolean {
  return names.has('HEAD') && ((names.has('objects') && names.has('refs')) || names.has('commondir'));
}

export const DEFAULT_SCAN_BUDGET = 200_000;

export async function scanWorkspace(root: string, rules: ScanRules, budget = DEFAULT_SCAN_BUDGET): Promise<WorkspaceScan> {
  const scan: WorkspaceScan = { ignored: [], ignoredFiles: [], protectedTop: [], protectedAll: new Map(), linkedToIgnored: [], truncated: false, entries: 0 };
  const multiLinked: ScannedEntry[] = [];
  // [relative folder, inside a protected folder]
  let level: [string, boolean][] = [['', false]];
  while (level.length > 0 && !scan.truncated) {
    const next: [string, boolean][] = [];
    for (const [dirRel, inProtected] of level) {
      let names: string[];
      try {
        names = (await fs.readdir(path.join(root, dirRel))).sort();
      } catch {
        continue; // vanished or unreadable: nothing in it to mask
      }
      const layout = dirRel !== '.git' && isGitDirLayout(new Set(names));
      for (const name of names) {
        if (++scan.entries > budget) {
          scan.truncated = true;
          break;
        }
        const rel = dirRel ? `${dirRel}/${name}` : name;
        if (rules.isOwnState?.(rel)) continue;
        let st: Stats;
        try {
          st = await fs.lstat(path.join(root, rel));
        } catch {
          continue;
        }
        const entry = toEntry(rel, st);
        const isDir = entry.type === 'dir';
        if (rules.isIgnored(rel, isDir)) {
          scan.ignored.push(entry);
          if (entry.type === 'file') scan.ignoredFiles.push(entry);
          else if (isDir) await collectFiles(root, rel, scan.ignoredFiles, IGNORED_DIR_BUDGET);
          continue;
        }
        const isProtected = inProtected || (layout && GIT_LAYOUT_PARTS.has(name)) || rules.isProtected(rel, isDir);
        if (isProtected) {
          scan.protectedAll.set(rel, entry);
          if (!inProtected) scan.protectedTop.push(entry);
        }
        if (entry.type === 'file' && entry.nlink > 1) multiLinked.push(entry);
        // The root .git is git's own business (objects, refs, index change with every commit); its
        // executing parts are handled by gitExecParts. A nested .git is protected as a whole.
        if (isDir && !(rel === '.git')) next.push([rel, isProtected]);
      }
      if (scan.truncated) break;
    }
    level = next;
  }
  const ignoredInodes = new Set(scan.ignoredFiles.map(inodeKey));
  if (ignoredInodes.size > 0) scan.linkedToIgnored = multiLinked.filter((e) => ignoredInodes.has(inodeKey(e)));
  return scan;
}

const IGNORED_DIR_BUDGET = 5000;

/** The files under an ignored folder (links not followed), for the inode set and the redactor. */
async function collectFiles(root: string, dirRel: string, out: ScannedEntry[], budget: number): Promise<number> {
  const names = await fs.readdir(path.join(root, dirRel)).catch(() => [] as string[]);
  for (const name of names) {
    if (budget-- <= 0) return 0;
    const rel = `${dirRel}/${name}`;
    const st = await fs.lstat(path.join(root, rel)).catch(() => undefined);
    if (!st) continue;
    if (st.isFile()) out.push(toEntry(rel, st));
    else if (st.isDirectory()) budget = await collectFiles(root, rel, out, budget);
  }
  return budget;
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
 * (F2, F4): config (fsmonitor, pagers, filters, aliases), hooks, info/ (attributes, exclude),
 * commondir and gitdir (redirect git to a planted config), submodule and worktree git folders.
 */
export const GIT_EXEC_PARTS = ['config', 'config.worktree', 'commondir', 'gitdir', 'hooks', 'info', 'modules', 'worktrees', 'objects/info/alternates'];
