/**
 * A digest of everything a process started in the workspace can load from it, for launches that
 * run outside the sandbox. No parser can list what a program loads (a computed `import()`,
 * `createRequire` with a built string, a plugin folder read at run time, a package from
 * `node_modules`, a `.pth` file, `NODE_OPTIONS`), so the digest covers the whole tree: every file,
 * link and folder under the root, git-ignored ones included (`node_modules`, `.venv` and caches are
 * exactly where such loads go).
 *
 * Left out: `.git` at any depth and PatchPilot's state folder. Both are protected paths (no tool
 * writes them without an approval of that very write; commands cannot change them: read-only in the
 * sandbox, restored or quarantined without one), and both change for PatchPilot's own reasons (the
 * history database after every step, auto-commit's objects), which would make every approval stale.
 *
 * Each entry counts by its stat identity (inode, size, mode, modification and change times in
 * nanoseconds), not its bytes: the change time cannot be set back from user space, so any write,
 * rename or replacement shows, and no file is read. A touch without a change asks again too: stricter
 * than content, never weaker. The digest is kept per top-level entry, so a stale approval can say
 * where the workspace changed.
 */
import { lstatSync, readdirSync, readlinkSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { hash } from './canonicalHash';

/** Past this many entries the tree is not fingerprinted: a launch outside the sandbox then asks at every start. */
export const MAX_TREE_ENTRIES = 200_000;
/** Top-level entries kept by name (to say where a change is); a larger root keeps the overall digest only. */
const MAX_PARTS = 256;

export interface WorkspaceTree {
  digest: string;
  /** Top-level entry name -> digest of everything under it. */
  parts: Record<string, string>;
  entries: number;
  /** False when the walk stopped at MAX_TREE_ENTRIES: such a tree matches no approval. */
  complete: boolean;
}

export interface WorkspaceTreeOptions {
  /** Workspace-relative POSIX folders left out besides `.git` (the state folder). */
  exclude?: readonly string[];
  maxEntries?: number;
}

export function workspaceTree(root: string, options: WorkspaceTreeOptions = {}): WorkspaceTree {
  const exclude = new Set((options.exclude ?? []).map((x) => x.replace(/\/+$/, '')));
  const max = options.maxEntries ?? MAX_TREE_ENTRIES;
  const budget = { left: max };
  const parts: Record<string, string> = {};
  for (const name of listNames(root)) {
    if (skipped(name, name, exclude)) continue;
    parts[name] = entryDigest(root, name, exclude, budget);
  }
  const complete = budget.left > 0;
  const names = Object.keys(parts);
  return {
    digest: hash({ parts, complete }),
    parts: names.length <= MAX_PARTS ? parts : {},
    entries: max - Math.max(budget.left, 0),
    complete,
  };
}

/** Where two trees differ, in words: `src/, node_modules/ (changed)`; undefined when they match. */
export function describeTreeChange(approved: WorkspaceTree, now: WorkspaceTree): string | undefined {
  if (!now.complete) return `the workspace has over ${MAX_TREE_ENTRIES.toLocaleString('en-US')} entries, too many to fingerprint, so every start asks`;
  if (approved.digest === now.digest) return undefined;
  const names = [...new Set([...Object.keys(approved.parts), ...Object.keys(now.parts)])].filter((n) => approved.parts[n] !== now.parts[n]).sort();
  if (names.length === 0) return 'files in the workspace changed since it was approved';
  const shown = names
    .slice(0, 8)
    .map((n) => (now.parts[n] === undefined ? `${n} (removed)` : approved.parts[n] === undefined ? `${n} (added)` : `${n} (changed)`));
  return `files in the workspace changed since it was approved: ${shown.join(', ')}${names.length > 8 ? ` and ${names.length - 8} more` : ''}`;
}

function entryDigest(root: string, rel: string, exclude: Set<string>, budget: { left: number }): string {
  // Iterative: a deep tree cannot exhaust the stack.
  const lines: string[] = [];
  const stack = [rel];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (--budget.left < 0) break;
    const abs = path.join(root, current);
    let st: BigIntStats;
    try {
      st = lstatSync(abs, { bigint: true });
    } catch {
      lines.push(`${current}\0gone`);
      continue;
    }
    lines.push(`${current}\0${stamp(abs, st)}`);
    if (!st.isDirectory()) continue;
    for (const name of listNames(abs).reverse()) {
      const child = `${current}/${name}`;
      if (!skipped(name, child, exclude)) stack.push(child);
    }
  }
  return hash(lines);
}

function stamp(abs: string, st: BigIntStats): string {
  const times = `${st.mtimeNs}:${st.ctimeNs}`;
  if (st.isSymbolicLink()) return `L:${safeReadlink(abs)}:${st.ino}:${times}`;
  if (st.isDirectory()) return `D:${st.mode}`;
  return `${st.isFile() ? 'F' : 'O'}:${st.ino}:${st.size}:${st.mode}:${times}`;
}

function skipped(name: string, rel: string, exclude: Set<string>): boolean {
  return name === '.git' || exclude.has(rel);
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function safeReadlink(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return '?';
  }
}
