/**
 * What "restore to before step N" of a run would do: for each path the steps from N on changed, the
 * state before the first of them (the target) and the state the last of them left (expected on disk
 * now). A path that is not as the run left it (changed by the user since), whose earlier bytes were
 * not kept or were pruned, or whose folder cannot be written blocks the restore.
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import path from 'node:path';
import { hashBytes } from './blobStore';
import type { CheckpointStore } from './checkpointStore';
import { sameState } from './checkpointer';
import type { FileState } from './types';
import { readBytes, statPath } from './workspaceState';

export interface RestoreItem {
  path: string;
  /** On disk now (what the run left). */
  current: FileState | null;
  /** What the restore writes (null: the path is removed). */
  target: FileState | null;
}

export interface RestorePlan {
  runId: string;
  beforeStep: number;
  /** Steps whose records take part, for the message. */
  steps: number[];
  items: RestoreItem[];
  blocked: { path: string; reason: string }[];
}

/** Plans a restore; throws a message when the run has no checkpoint at or after that step. */
export function planRestore(store: CheckpointStore, root: string, runId: string, beforeStep: number): RestorePlan {
  const records = store.records(runId).filter((r) => r.step >= beforeStep);
  if (records.length === 0) {
    const all = store.records(runId);
    const known = [...new Set(all.map((r) => r.step))].join(', ');
    throw new Error(
      all.length === 0
        ? `run ${runId} has no checkpoints (it changed no files, or they were pruned)`
        : `no step from ${beforeStep} on changed files in run ${runId} (steps that did: ${known})`,
    );
  }
  const byPath = new Map<string, { target: FileState | null; expected: FileState | null; step: number }>();
  const blocked: RestorePlan['blocked'] = [];
  for (const r of records) {
    for (const c of r.changes) {
      const seen = byPath.get(c.path);
      if (seen) {
        seen.expected = c.after;
        seen.step = r.step;
      } else byPath.set(c.path, { target: c.before, expected: c.after, step: r.step });
    }
    for (const p of r.uncaptured ?? []) blocked.push({ path: p, reason: `its content before step ${r.step} was too large or unreadable to keep` });
  }
  const items: RestoreItem[] = [];
  for (const [rel, { target, expected, step }] of [...byPath].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (rel.split('/').includes('.git')) continue; // never the user's git data
    const current = currentState(root, rel);
    if (sameState(current, target)) continue; // already as it was
    if (!sameState(current, expected)) {
      blocked.push({ path: rel, reason: `changed since step ${step} (by you or another program); restoring it would lose that change` });
      continue;
    }
    if (target && target.kind !== 'dir' && !store.blobs.has(target.hash)) {
      blocked.push({ path: rel, reason: 'its saved content is gone (pruned under patchpilot.checkpoints.maxBytes, or lost to a crash)' });
      continue;
    }
    if (target && target.kind !== 'dir' && hashBytes(store.blobs.get(target.hash)) !== target.hash) {
      blocked.push({ path: rel, reason: 'its saved content was altered on disk; it is not written back' });
      continue;
    }
    const dir = nearestExisting(root, path.posix.dirname(rel));
    try {
      accessSync(path.join(root, dir), constants.W_OK);
      // A file's bytes are read to keep them for a redo; a link is read as its text (accessSync would follow it, and a dangling one would block).
      if (current?.kind === 'file') accessSync(path.join(root, rel), constants.R_OK);
    } catch {
      blocked.push({ path: rel, reason: `no permission to change it (folder ${dir || '.'})` });
      continue;
    }
    items.push({ path: rel, current, target });
  }
  // A folder the restore removes must hold nothing else (ignored files the checkpoints do not cover).
  const removed = new Set(items.filter((i) => i.target === null).map((i) => i.path));
  for (const item of items) {
    if (item.target !== null || item.current?.kind !== 'dir') continue;
    const foreign = entriesOf(root, item.path).filter((name) => !removed.has(`${item.path}/${name}`));
    if (foreign.length)
      blocked.push({
        path: item.path,
        reason: `the run created this folder, but it now also holds ${foreign.slice(0, 3).join(', ')} (not in its checkpoints)`,
      });
  }
  return { runId, beforeStep, steps: [...new Set(records.map((r) => r.step))], items, blocked };
}

/** A path's state on disk now (hashed, not stored). */
export function currentState(root: string, rel: string): FileState | null {
  const row = statPath(root, rel);
  if (!row) return null;
  if (row.kind === 'dir') return { kind: 'dir', hash: '', mode: row.mode, size: 0 };
  try {
    const bytes = readBytes(root, rel, row.kind);
    return { kind: row.kind, hash: hashBytes(bytes), mode: row.mode, size: bytes.length };
  } catch {
    return { kind: row.kind, hash: 'unreadable', mode: row.mode, size: row.size };
  }
}

function entriesOf(root: string, rel: string): string[] {
  try {
    return readdirSync(path.join(root, rel));
  } catch {
    return [];
  }
}

function nearestExisting(root: string, dir: string): string {
  let d = dir === '.' ? '' : dir;
  while (d && !statPath(root, d)) d = path.posix.dirname(d) === '.' ? '' : path.posix.dirname(d);
  return d;
}
