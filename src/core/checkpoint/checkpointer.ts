/**
 * Takes a checkpoint around one step: `begin()` before the step keeps the bytes of what it may change
 * (the paths a patch or a write names; for a command, a test run, an MCP tool or a subagent, every
 * workspace path that is not ignored), `end()` after it records what did change, with the bytes it
 * left. The stat cache (hashIndex) keeps a path from being read again while its stat is unchanged.
 */
import path from 'node:path';
import { CheckpointStore } from './checkpointStore';
import { readBytes, statPath, statWorkspace, type StatRow } from './workspaceState';
import type { CheckpointScope, Checkpoints, FileState, OpenCapture, PathChange, StepCheckpoint } from './types';

export interface CheckpointerOptions {
  /** Real path of the workspace root. */
  root: string;
  /** Absolute path of the state folder (`.patchpilot`). */
  stateDir: string;
  maxBytes: number;
  /** Ignored for a workspace capture (`.gitignore`, `.patchpilotignore`): a predicate made once per walk. */
  ignored(): (rel: string, isDir: boolean) => boolean;
  /** A file larger than this is not kept (its change is recorded as uncaptured). Default 32 MiB. */
  maxFileBytes?: number;
}

/** What `begin`/`end` measured, for the benchmark and the log. */
export interface CaptureStats {
  scope: 'paths' | 'workspace';
  beginMs: number;
  endMs: number;
  paths: number;
  addedBytes: number;
}

type Captured = FileState | 'uncaptured' | null;

export class Checkpointer implements Checkpoints {
  readonly store: CheckpointStore;
  /** The last capture's figures. */
  last: CaptureStats | undefined;
  private addedBytes = 0;

  constructor(private readonly options: CheckpointerOptions) {
    this.store = new CheckpointStore(options.stateDir);
  }

  takeNotes(): string[] {
    return this.store.takeNotes();
  }

  async begin(input: { runId: string; step: number; tool: string; scope: CheckpointScope }): Promise<OpenCapture | undefined> {
    if (input.scope === 'none') return undefined;
    this.store.ensure();
    this.addedBytes = 0;
    const started = Date.now();
    const at = started;
    const finish = async (scope: 'paths' | 'workspace', changes: PathChange[], uncaptured: string[], beginMs: number, endStart: number) => {
      this.store.index.flush();
      this.last = { scope, beginMs, endMs: Date.now() - endStart, paths: changes.length, addedBytes: this.addedBytes };
      if (changes.length === 0) return undefined;
      const record: StepCheckpoint = {
        version: 1,
        runId: input.runId,
        step: input.step,
        seq: this.store.nextSeq(input.runId),
        tool: input.tool,
        at,
        scope,
        changes,
        ...(uncaptured.length ? { uncaptured } : {}),
      };
      this.store.save(record);
      this.store.prune(this.options.maxBytes, input.runId);
      return record;
    };
    if (input.scope === 'workspace') {
      const rules = this.walkRules();
      const before = await statWorkspace(this.options.root, rules);
      const states = new Map<string, Captured>();
      for (const [rel, row] of before) states.set(rel, this.capture(rel, row));
      const beginMs = Date.now() - started;
      return {
        end: async () => {
          const endStart = Date.now();
          const after = await statWorkspace(this.options.root, this.walkRules());
          const { changes, uncaptured } = this.diff(before, after, states);
          return finish('workspace', changes, uncaptured, beginMs, endStart);
        },
      };
    }
    const rels = this.withMissingParents(input.scope);
    const before = new Map<string, StatRow>();
    const states = new Map<string, Captured>();
    for (const rel of rels) {
      const row = statPath(this.options.root, rel);
      if (row) before.set(rel, row);
      states.set(rel, row ? this.capture(rel, row) : null);
    }
    const beginMs = Date.now() - started;
    return {
      end: async () => {
        const endStart = Date.now();
        const after = new Map<string, StatRow>();
        for (const rel of rels) {
          const row = statPath(this.options.root, rel);
          if (row) after.set(rel, row);
        }
        const { changes, uncaptured } = this.diff(before, after, states);
        return finish('paths', changes, uncaptured, beginMs, endStart);
      },
    };
  }

  /** Paths that differ between two stat maps, with their states before (kept at begin) and after. */
  private diff(before: Map<string, StatRow>, after: Map<string, StatRow>, states: Map<string, Captured>): { changes: PathChange[]; uncaptured: string[] } {
    const changes: PathChange[] = [];
    const uncaptured: string[] = [];
    const all = new Set([...before.keys(), ...after.keys()]);
    for (const rel of [...all].sort()) {
      const b = before.get(rel);
      const a = after.get(rel);
      if (b && a && b.sig === a.sig) continue;
      const was = states.get(rel) ?? null;
      const now = a ? this.capture(rel, a) : null;
      if (was === 'uncaptured' || now === 'uncaptured') {
        uncaptured.push(rel);
        continue;
      }
      if (sameState(was, now)) continue; // touched, same bytes and mode
      changes.push({ path: rel, before: was, after: now });
    }
    return { changes, uncaptured };
  }

  /** A path's state, its bytes kept in the blob store (read only when the stat cache does not know them). */
  private capture(rel: string, row: StatRow): Captured {
    if (row.kind === 'dir') return { kind: 'dir', hash: '', mode: row.mode, size: 0 };
    const { index, blobs } = this.store;
    const cached = index.lookup(rel, row.sig);
    if (cached && blobs.has(cached)) return { kind: row.kind, hash: cached, mode: row.mode, size: row.size };
    if (row.size > (this.options.maxFileBytes ?? 32 * 1024 * 1024)) return 'uncaptured';
    try {
      const bytes = readBytes(this.options.root, rel, row.kind);
      const { hash, added } = blobs.put(bytes);
      this.addedBytes += added;
      index.set(rel, row.sig, hash);
      return { kind: row.kind, hash, mode: row.mode, size: bytes.length };
    } catch {
      return 'uncaptured'; // unreadable (permissions): a restore must not pretend it can bring it back
    }
  }

  private walkRules() {
    const ignored = this.options.ignored();
    const state = path.relative(this.options.root, this.options.stateDir).split(path.sep).join('/');
    return {
      skip: (rel: string, isDir: boolean) => rel === state || rel.startsWith(`${state}/`) || rel === '.git' || rel.endsWith('/.git') || ignored(rel, isDir),
    };
  }

  /** The named paths (workspace-relative, inside the root) and their parents that do not exist yet (a restore removes them again). */
  private withMissingParents(paths: readonly string[]): string[] {
    const out = new Set<string>();
    for (const p of paths) {
      const rel = toRel(this.options.root, p);
      if (!rel) continue;
      out.add(rel);
      for (let dir = path.posix.dirname(rel); dir !== '.' && !statPath(this.options.root, dir); dir = path.posix.dirname(dir)) out.add(dir);
    }
    return [...out];
  }
}

export function sameState(a: FileState | null, b: FileState | null): boolean {
  if (!a || !b) return a === b;
  return a.kind === b.kind && a.hash === b.hash && a.mode === b.mode;
}

function toRel(root: string, p: string): string | undefined {
  const rel = path.relative(root, path.resolve(root, p));
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}
