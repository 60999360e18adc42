/**
 * Takes a checkpoint around one step: `begin()` before the step keeps the bytes of what it may change
 * (the paths a patch or a write names; for a command, a test run, an MCP tool or a subagent, every
 * workspace path that is not ignored), `end()` after it records what did change, with the bytes it
 * left. The stat cache (hashIndex) keeps a path from being read again while its stat is unchanged.
 */
import path from 'node:path';
import { ChangeFeed, type FeedCursor } from '../fs/changeFeed';
import { CheckpointStore } from './checkpointStore';
import { TimeSlicer, throttledProgress } from '../base/timeSlicer';
import { readBytes, statListed, statPath, statWorkspace, type StatRow } from './workspaceState';
import { isReference, materialize, referenceState } from './repositoryRefs';
import type { BeginInput, Checkpoints, FileState, OpenCapture, PathChange, RepositoryObjects, StepCheckpoint } from './types';

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
  /** false: no change feed, every workspace capture walks (tests, the benchmark's comparison). */
  watch?: boolean;
  /** The workspace's one change feed, shared with the protected guard (createAgent); without it the checkpointer makes its own. */
  feed?: ChangeFeed;
  /**
   * The kept files as the repository lists them (`git ls-files`, tracked and untracked, none ignored,
   * `.patchpilotignore` applied), or undefined without a usable repository: the first look then
   * walks. Saves a stat of every folder and an ignore match per path, and never enters an ignored tree.
   */
  listKept?(signal?: AbortSignal): Promise<readonly string[] | undefined>;
  /** With the listing: the repository's objects, so that its unchanged tracked files are referenced, not copied (repositoryRefs.ts). */
  objects?: RepositoryObjects;
}

interface Known {
  row: StatRow;
  state: Captured;
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
  /** How the last workspace capture found the changes: the change feed, or a walk. */
  lastMode: 'feed' | 'walk' | undefined;
  /** How the first look listed the workspace: the repository's listing, or a walk. */
  lastListing: 'git' | 'walk' = 'walk';
  /** Every kept workspace path as of the last look, with its state (its bytes are in the blob store). */
  private known: Map<string, Known> | undefined;
  private feed: { feed: ChangeFeed; cursor: FeedCursor; owned: boolean } | undefined;
  private addedBytes = 0;

  constructor(private readonly options: CheckpointerOptions) {
    this.store = new CheckpointStore(options.stateDir);
  }

  takeNotes(): string[] {
    return this.store.takeNotes();
  }

  async begin(input: BeginInput): Promise<OpenCapture | undefined> {
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
      await this.store.blobs.measure();
      const pruned = this.store.prune(this.options.maxBytes, input.runId);
      if (pruned.droppedRuns.length > 0) input.notice?.(describePrune(pruned, this.options.maxBytes));
      return record;
    };
    if (input.scope === 'workspace') {
      // `known` is made to match the disk (changes since the last step are not this step's), then the step's changes are what moved from it.
      await this.sync(input);
      const beginMs = Date.now() - started;
      return {
        end: async () => {
          const endStart = Date.now();
          // Not the run's signal: a cancelled command's changes still need their record, or no restore could undo them.
          const { changes, uncaptured } = await this.advance({ progress: input.progress });
          return finish('workspace', changes, uncaptured, beginMs, endStart);
        },
      };
    }
    const rels = this.withMissingParents(input.scope);
    // A path the tool names may be ignored (`.env`): like the walks, its bytes are never copied; its change is reported as not kept.
    const leftOut = this.skipRule();
    const keep = (rel: string, row: StatRow): Captured => (skippedWithin(leftOut, rel, row.kind === 'dir') ? 'uncaptured' : this.capture(rel, row));
    const before = new Map<string, StatRow>();
    const states = new Map<string, Captured>();
    for (const rel of rels) {
      const row = statPath(this.options.root, rel);
      if (row) before.set(rel, row);
      states.set(rel, row ? keep(rel, row) : null);
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
        const { changes, uncaptured } = this.diff(before, after, states, keep);
        return finish('paths', changes, uncaptured, beginMs, endStart);
      },
    };
  }

  /**
   * Brings `known` (every kept path's stat and state) up to the disk: a walk the first time, then only
   * the paths the change feed saw (a walk again when it missed something).
   */
  private async sync(input: Pick<BeginInput, 'signal' | 'progress'>): Promise<void> {
    if (!this.known) {
      // The feed starts before the walk: a change during the walk is seen by one or the other.
      if (this.options.watch !== false && !this.feed) {
        const owned = !this.options.feed;
        const feed = this.options.feed ?? new ChangeFeed(this.options.root, path.join(this.store.dir, 'feed'), this.stateRel());
        if (await feed.start()) this.feed = { feed, cursor: feed.cursor(), owned };
        else if (owned) feed.close();
      }
      await this.feed?.feed.settle();
      this.feed?.cursor.take();
      const { rows, refs } = await this.lookAtWorkspace(input.signal);
      const known = new Map<string, Known>();
      const slicer = new TimeSlicer(input.signal);
      const progress = throttledProgress(input.progress);
      this.store.blobs.startBatch();
      try {
        for (const [rel, row] of rows) {
          const ref = row.links <= 1 ? refs.get(rel) : undefined;
          known.set(rel, { row, state: ref ? referenceState(row, ref) : this.capture(rel, row) });
          progress(known.size, rows.size);
          await slicer.turn();
        }
      } finally {
        this.store.blobs.endBatch(); // before the index that names them
        this.store.index.flush(); // what was kept before a cancel is not read again by the next run
      }
      this.known = known;
      return;
    }
    // Never cut short: the feed's paths are taken, a half-done advance would lose them.
    await this.advance({ progress: input.progress });
  }

  /** The first look at the workspace: the repository's own listing where there is one, else a walk. */
  private async lookAtWorkspace(signal?: AbortSignal): Promise<{ rows: Map<string, StatRow>; refs: Map<string, string> }> {
    const listed = await this.options.listKept?.(signal);
    if (!listed) return { rows: await statWorkspace(this.options.root, this.walkRules(), '', signal), refs: new Map() };
    this.lastListing = 'git';
    const rows = await statListed(this.options.root, listed, { listed: { skip: this.ownRule() }, walked: this.walkRules() }, signal);
    return { rows, refs: await this.unchangedInRepository(rows, signal) };
  }

  /** The listed files whose bytes the repository holds (asked after their stat: a change after it is the feed's). */
  private async unchangedInRepository(rows: Map<string, StatRow>, signal?: AbortSignal): Promise<Map<string, string>> {
    if (!this.options.objects) return new Map();
    const sizes = new Map<string, number>();
    for (const [rel, row] of rows) if (row.kind !== 'dir') sizes.set(rel, row.size);
    try {
      return await this.options.objects.unchanged(sizes, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      return new Map(); // git failed: every file is copied, as without a repository
    }
  }

  /** Moves `known` to the disk now; what changed on the way, with its states before and after. */
  private async advance(input: Pick<BeginInput, 'progress'>): Promise<{ changes: PathChange[]; uncaptured: string[] }> {
    // A command that changed thousands of files (a checkout, an install) keeps their bytes in one pack.
    this.store.blobs.startBatch();
    try {
      return await this.advanceKnown(input);
    } finally {
      this.store.blobs.endBatch();
    }
  }

  private async advanceKnown(input: Pick<BeginInput, 'progress'>): Promise<{ changes: PathChange[]; uncaptured: string[] }> {
    const known = this.known!;
    let rels: Set<string>;
    let rows: Map<string, StatRow> | undefined;
    const dirty = this.feed ? (await this.feed.feed.settle(), this.feed.cursor.take()) : undefined;
    if (dirty) {
      this.lastMode = 'feed';
      rels = await this.expand(dirty);
    } else {
      this.lastMode = 'walk';
      rows = await statWorkspace(this.options.root, this.walkRules());
      rels = new Set([...known.keys(), ...rows.keys()].filter((rel) => known.get(rel)?.row.sig !== rows!.get(rel)?.sig));
    }
    const changes: PathChange[] = [];
    const uncaptured: string[] = [];
    const skip = this.skipRule();
    const slicer = new TimeSlicer();
    const progress = throttledProgress(input.progress);
    let done = 0;
    /** Paths whose state before is a reference to the repository: judged once their bytes are read back, all at once. */
    const referenced = new Map<string, FileState>();
    const nows = new Map<string, Captured>();
    const judge = (rel: string, before: Captured, now: Captured) => {
      if (before === 'uncaptured' || now === 'uncaptured') uncaptured.push(rel);
      else if (!sameState(before, now)) changes.push({ path: rel, before, after: now });
    };
    for (const rel of [...rels].sort()) {
      progress(++done, rels.size);
      await slicer.turn();
      const was = known.get(rel);
      const row = rows ? rows.get(rel) : skip(rel, false) ? undefined : statPath(this.options.root, rel);
      if (was && row && was.row.sig === row.sig) continue;
      const now = row ? this.capture(rel, row) : null;
      if (row) known.set(rel, { row, state: now });
      else known.delete(rel);
      const before = was ? was.state : null;
      if (isReference(before)) {
        referenced.set(rel, before);
        nows.set(rel, now);
      } else judge(rel, before, now);
    }
    if (referenced.size > 0) {
      const read = await materialize(referenced, this.options.objects, this.store.blobs);
      this.addedBytes += read.addedBytes;
      for (const [rel, before] of read.states) judge(rel, before, nows.get(rel)!);
      changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      uncaptured.sort();
    }
    return { changes, uncaptured };
  }

  /** The feed's paths, with everything below a folder that appeared, went or was replaced. */
  private async expand(dirty: Set<string>): Promise<Set<string>> {
    const known = this.known!;
    const out = new Set<string>();
    const skip = this.skipRule();
    for (const d of dirty) {
      const rel = d.endsWith('/') ? d.slice(0, -1) : d;
      const row = statPath(this.options.root, rel);
      // The feed reports what the guard needs (ignored folders, `.git`, the state folder): a checkpoint keeps none of it.
      if (skippedWithin(skip, rel, row?.kind === 'dir' || known.get(rel)?.row.kind === 'dir')) continue;
      out.add(rel);
      const wasDir = known.get(rel)?.row.kind === 'dir';
      const isDir = row?.kind === 'dir';
      if (!d.endsWith('/') && wasDir === isDir && (isDir ? known.has(rel) : true)) continue;
      if (wasDir) for (const k of known.keys()) if (k.startsWith(`${rel}/`)) out.add(k);
      if (isDir) for (const k of (await statWorkspace(this.options.root, this.walkRules(), rel)).keys()) out.add(k);
    }
    return out;
  }

  /** Paths that differ between two stat maps, with their states before (kept at begin) and after. */
  private diff(
    before: Map<string, StatRow>,
    after: Map<string, StatRow>,
    states: Map<string, Captured>,
    keep: (rel: string, row: StatRow) => Captured,
  ): { changes: PathChange[]; uncaptured: string[] } {
    const changes: PathChange[] = [];
    const uncaptured: string[] = [];
    const all = new Set([...before.keys(), ...after.keys()]);
    for (const rel of [...all].sort()) {
      const b = before.get(rel);
      const a = after.get(rel);
      if (b && a && b.sig === a.sig) continue;
      const was = states.get(rel) ?? null;
      const now = a ? keep(rel, a) : null;
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
    // Another name of the same bytes may be an ignored secret (`ln .env notes.txt`): the store is
    // readable in the workspace, so such a file is never copied into it; its change is reported as
    // not kept (a restore cannot bring it back), as for an unreadable file.
    if (row.kind === 'file' && row.links > 1) return 'uncaptured';
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
    return { skip: this.skipRule() };
  }

  /** Left out of workspace captures: the state folder, every `.git`, ignored paths. */
  private skipRule(): (rel: string, isDir: boolean) => boolean {
    const ignored = this.options.ignored();
    const own = this.ownRule();
    return (rel, isDir) => own(rel) || ignored(rel, isDir);
  }

  /** The state folder and every `.git`: what no capture keeps, whatever the ignore files say. */
  private ownRule(): (rel: string) => boolean {
    const state = this.stateRel();
    const inGit = (rel: string) => rel === '.git' || rel.startsWith('.git/') || rel.endsWith('/.git') || rel.includes('/.git/');
    return (rel) => rel === state || rel.startsWith(`${state}/`) || inGit(rel);
  }

  private stateRel(): string {
    return path.relative(this.options.root, this.options.stateDir).split(path.sep).join('/');
  }

  /** Stops reading the change feed (and stops it, when it is the checkpointer's own). */
  dispose(): void {
    this.feed?.cursor.close();
    if (this.feed?.owned) this.feed.feed.close();
    this.feed = undefined;
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

/** Whether `rel` or a folder above it is left out (a path inside an ignored folder is not always matched by the rule alone). */
function skippedWithin(skip: (rel: string, isDir: boolean) => boolean, rel: string, isDir: boolean): boolean {
  if (skip(rel, isDir)) return true;
  for (let i = rel.indexOf('/'); i !== -1; i = rel.indexOf('/', i + 1)) if (skip(rel.slice(0, i), true)) return true;
  return false;
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

/** "The checkpoint store is over its cap (512 MiB): the restore points of 2 older runs were dropped (run-a, run-b)." */
function describePrune(pruned: { droppedRuns: string[] }, maxBytes: number): string {
  const n = pruned.droppedRuns.length;
  return `the checkpoint store is over its cap (${Math.round(maxBytes / 1024 / 1024)} MiB, patchpilot.checkpoints.maxBytes): the restore points of ${n} older run${n === 1 ? ' were' : 's were'} dropped (${pruned.droppedRuns.join(', ')})`;
}
