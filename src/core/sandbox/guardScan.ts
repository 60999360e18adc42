/**
 * The protected guard's view of the workspace (what is ignored, what is protected): made by a walk
 * (scanWithGitParts), or brought up to date from the paths the change feed saw (updateScan), with the
 * same rules, so that both give the same answer for the same disk. Where the feed does not look, the
 * update lists a few known places every time (a cheap, targeted check, not a walk): the root `.git`'s
 * executing parts, the state folder, nested `.git` folders.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isGitDirPartName, namesFormGitDir } from '../policy/path/bareRepo';
import { createProtectedTest, foldForMatch } from '../policy/path/protectedPaths';
import { IGNORE_FILE_NAME } from '../policy/path/ignoreFilter';
import type { GuardOptions } from './protectedGuard';
import {
  GIT_EXEC_PARTS,
  inodeKey,
  listTree,
  scanWorkspace,
  toEntry,
  type ScanRules,
  type ScanStart,
  type ScannedEntry,
  type WorkspaceScan,
} from './workspaceScan';

/** The checkpoint store's folder in the state folder (src/core/checkpoint/checkpointStore.ts says the same). */
const CHECKPOINTS_DIR = 'checkpoints';
export const QUARANTINE = 'quarantine';
const DEFAULT_STORE = `.patchpilot/${CHECKPOINTS_DIR}`;

export function guardRules(options: GuardOptions): ScanRules {
  const isProtected = createProtectedTest(options.protectedGlobs ?? []);
  const state = options.stateDir ?? '.patchpilot';
  return {
    isIgnored: options.ignored(),
    isProtected: (rel, isDir) => rel !== '.git' && isProtected(rel, isDir),
    isOwnState: (rel) => {
      // The checkpoint store is in `.patchpilot` even when the history database is elsewhere.
      if (rel === DEFAULT_STORE || rel.startsWith(`${DEFAULT_STORE}/`)) return true;
      if (!rel.startsWith(`${state}/`)) return false;
      const inside = rel.slice(state.length + 1);
      // The database and its companions, the folder's own .gitignore (written at the first save,
      // maybe during a command) and the quarantine are written by PatchPilot, not by the command.
      // The checkpoint store (written between commands, never during one; the change feed's markers) is left out too: walking and keeping
      // its blobs would make every command pay for the store's size; a restore checks each blob's hash instead.
      return (
        inside.startsWith(options.stateFile ?? 'history.db') ||
        inside === '.gitignore' ||
        inside.startsWith(QUARANTINE) ||
        inside === CHECKPOINTS_DIR ||
        inside.startsWith(`${CHECKPOINTS_DIR}/`)
      );
    },
  };
}

/** The workspace walk plus the root `.git`'s executing parts (its other contents change with every commit). */
export async function scanWithGitParts(options: GuardOptions): Promise<WorkspaceScan> {
  const scan = await scanWorkspace(options.root, guardRules(options), options.budget);
  await addGitParts(options.root, scan);
  return scan;
}

async function addGitParts(root: string, scan: WorkspaceScan): Promise<void> {
  scan.gitDir = false;
  const git = await fs.lstat(path.join(root, '.git')).catch(() => undefined);
  if (git?.isDirectory()) {
    scan.gitDir = true;
    // A submodule's objects under .git/modules are data, not config.
    const skip = (rel: string) => rel.startsWith('.git/modules/') && rel.endsWith('/objects');
    for (const part of GIT_EXEC_PARTS) for (const e of await listTree(root, `.git/${part}`, { budget: 2000, skip })) scan.protectedAll.set(e.rel, e);
  } else if (git) {
    // A gitfile (worktree, submodule) or a link: the whole name is protected like any other.
    scan.protectedAll.set('.git', toEntry('.git', git));
  }
}

const parentOf = (rel: string) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
const baseOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);
const isRootGit = (rel: string) => rel === '.git' || rel.startsWith('.git/');

/**
 * `prev` with the paths in `dirty` (from the change feed; `dir/` = a folder's whole content) looked at
 * again, plus the places the feed does not watch (`unwatched`, nested `.git` folders, the root `.git`'s
 * parts). Undefined when only a walk can tell: the ignore file changed (every path may be classed anew),
 * or an ignored file gained a name elsewhere (its other names may be anywhere).
 */
export async function updateScan(
  options: GuardOptions,
  prev: WorkspaceScan,
  dirty: ReadonlySet<string>,
  unwatched: readonly string[],
): Promise<WorkspaceScan | undefined> {
  const rules = guardRules(options);
  const targets = new Set<string>([options.stateDir ?? '.patchpilot', ...unwatched]);
  for (const d of dirty) {
    const rel = d.endsWith('/') ? d.slice(0, -1) : d;
    if (!rel || foldForMatch(baseOf(rel)) === IGNORE_FILE_NAME) return undefined;
    targets.add(rel);
  }
  // Inside a nested `.git` (a repository of its own, protected whole) the feed does not look: listed again each time.
  for (const e of prev.protectedTop) if (e.rel !== '.git' && foldForMatch(baseOf(e.rel)) === '.git') targets.add(e.rel);

  // Where each rescan starts: a path inside an ignored folder is that folder (its files are listed whole).
  const roots = new Set<string>();
  for (const rel of targets) {
    const start = rescanRoot(rel, rules);
    if (start !== undefined) roots.add(start);
  }
  const byParent = new Map<string, Set<string>>();
  for (const rel of roots) {
    if ([...ancestors(rel)].some((a) => roots.has(a))) continue; // covered by a rescan above it
    const parent = parentOf(rel);
    if (!byParent.has(parent)) byParent.set(parent, new Set());
    byParent.get(parent)!.add(baseOf(rel));
  }
  const starts: ScanStart[] = [];
  const covered = new Set<string>();
  for (const [parent, names] of byParent) {
    // A folder's git-layout parts are protected only while the layout holds: a change beside them classes them anew.
    const listing = await fs.readdir(path.join(options.root, parent)).catch(() => [] as string[]);
    const layout = parent !== '.git' && namesFormGitDir(new Set(listing));
    for (const n of listing) if (isGitDirPartName(n) && (layout || prev.protectedAll.has(parent ? `${parent}/${n}` : n))) names.add(n);
    for (const n of names) covered.add(parent ? `${parent}/${n}` : n);
    starts.push({ dir: parent, inProtected: await insideProtected(options.root, parent, rules), only: names });
  }

  const within = (rel: string) => isRootGit(rel) || covered.has(rel) || [...ancestors(rel)].some((a) => covered.has(a));
  const keep = (e: ScannedEntry) => !within(e.rel);
  const sharedBefore = new Set(prev.ignoredFiles.filter((e) => e.nlink > 1).map(inodeKey));
  const part = await scanWorkspace(options.root, rules, options.budget, starts, sharedBefore);
  const next: WorkspaceScan = {
    ignored: [...prev.ignored.filter(keep), ...part.ignored],
    ignoredFiles: [...prev.ignoredFiles.filter(keep), ...part.ignoredFiles],
    protectedTop: [...prev.protectedTop.filter(keep), ...part.protectedTop],
    protectedAll: new Map([...[...prev.protectedAll].filter(([, e]) => keep(e)), ...part.protectedAll]),
    linkedToIgnored: [...prev.linkedToIgnored.filter(keep), ...part.linkedToIgnored],
    truncated: prev.truncated || part.truncated,
    entries: prev.entries,
  };
  if (next.ignoredFiles.some((e) => e.nlink > 1 && !sharedBefore.has(inodeKey(e)))) return undefined;
  await addGitParts(options.root, next);
  return next;
}

/** The folders above a path, nearest last. */
function* ancestors(rel: string): Generator<string> {
  for (let i = rel.indexOf('/'); i !== -1; i = rel.indexOf('/', i + 1)) yield rel.slice(0, i);
}

/** Where a rescan of `rel` starts; undefined when the guard does not walk there (the root `.git`, PatchPilot's own state). */
function rescanRoot(rel: string, rules: ScanRules): string | undefined {
  if (isRootGit(rel) || rules.isOwnState?.(rel)) return undefined;
  for (const a of ancestors(rel)) {
    if (rules.isOwnState?.(a)) return undefined;
    if (rules.isIgnored(a, true)) return a;
  }
  return rel;
}

/** Whether the entries of folder `dir` are inside a protected one, by the walk's rules (a protected folder, a git-layout part). */
async function insideProtected(root: string, dir: string, rules: ScanRules): Promise<boolean> {
  if (!dir) return false;
  for (const a of [...ancestors(dir), dir]) {
    if (rules.isProtected(a, true)) return true;
    const parent = parentOf(a);
    if (parent !== '.git' && isGitDirPartName(baseOf(a))) {
      const names = await fs.readdir(path.join(root, parent)).catch(() => [] as string[]);
      if (namesFormGitDir(new Set(names))) return true;
    }
  }
  return false;
}
