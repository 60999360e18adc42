/**
 * The checkpoint store under `<workspace>/.patchpilot/checkpoints/`: `blobs/` (content-addressed),
 * `runs/<runId>/<seq>.json` (one record per step that changed something, each written atomically),
 * `index.jsonl` (the stat cache) and `notes.json` (restores the agent has not been told of yet).
 * Capped: over `maxBytes` of restore points, the oldest runs' records go first, then the blobs nothing refers to.
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { mkdirConfined, removeConfined, removeTreeConfined, writeFileConfined } from '../fs/confinedWrite';
import { BlobStore } from './blobStore';
import { HashIndex } from './hashIndex';
import type { StepCheckpoint } from './types';

export const CHECKPOINTS_DIR = 'checkpoints';

export class CheckpointStore {
  readonly dir: string;
  /** The workspace: every write goes through real folders from here (fs/confinedWrite.ts), `.patchpilot` included. */
  readonly root: string;
  readonly blobs: BlobStore;
  private indexCache: HashIndex | undefined;

  /** `stateDir`: the absolute `.patchpilot` folder of the workspace. */
  constructor(stateDir: string) {
    this.dir = path.join(stateDir, CHECKPOINTS_DIR);
    this.root = path.dirname(stateDir);
    this.blobs = new BlobStore(path.join(this.dir, 'blobs'), this.root);
  }

  /** Creates the folder, with a `.gitignore` so that nothing of it is ever committed. */
  ensure(): void {
    mkdirConfined(this.root, this.dir);
    const ignore = path.join(this.dir, '.gitignore');
    if (!existsSync(ignore)) writeFileConfined(this.root, ignore, '*\n');
  }

  get index(): HashIndex {
    return (this.indexCache ??= new HashIndex(path.join(this.dir, 'index.jsonl'), this.root));
  }

  private runDir(runId: string): string {
    if (!/^[\w.-]+$/.test(runId)) throw new Error(`not a run id: ${runId}`);
    return path.join(this.dir, 'runs', runId);
  }

  save(record: StepCheckpoint): void {
    const dir = this.runDir(record.runId);
    writeFileConfined(this.root, path.join(dir, `${String(record.seq).padStart(6, '0')}.json`), JSON.stringify(record));
  }

  /** The next free sequence number of a run (records survive restarts: a resumed run continues). */
  nextSeq(runId: string): number {
    const names = safeReaddir(this.runDir(runId)).filter((n) => /^\d+\.json$/.test(n));
    return names.length === 0 ? 1 : Math.max(...names.map((n) => Number.parseInt(n, 10))) + 1;
  }

  records(runId: string): StepCheckpoint[] {
    const dir = this.runDir(runId);
    const out: StepCheckpoint[] = [];
    for (const name of safeReaddir(dir)
      .filter((n) => /^\d+\.json$/.test(n))
      .sort()) {
      try {
        out.push(JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as StepCheckpoint);
      } catch {
        /* unreadable: left out (atomic writes make this a foreign file) */
      }
    }
    return out;
  }

  /** Runs with records, newest (last written) first. */
  runs(): { runId: string; lastWrite: number }[] {
    const base = path.join(this.dir, 'runs');
    return safeReaddir(base)
      .map((runId) => ({ runId, lastWrite: mtime(path.join(base, runId)) }))
      .sort((a, b) => b.lastWrite - a.lastWrite);
  }

  /** Notes about restores, kept until the next run's first turn takes them. */
  addNote(note: string): void {
    this.ensure();
    writeFileConfined(this.root, path.join(this.dir, 'notes.json'), JSON.stringify([...this.readNotes(), note]));
  }

  takeNotes(): string[] {
    const notes = this.readNotes();
    if (notes.length > 0) removeConfined(this.root, path.join(this.dir, 'notes.json'), 'non-folder');
    return notes;
  }

  private readNotes(): string[] {
    try {
      const parsed: unknown = JSON.parse(readFileSync(path.join(this.dir, 'notes.json'), 'utf8'));
      return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : [];
    } catch {
      return [];
    }
  }

  /**
   * Keeps the restore points' own bytes within `maxBytes`: the oldest runs' records go first (never
   * `keepRunId`'s), then the blobs no remaining record refers to. The copy of the workspace as it is
   * now (the blobs the stat cache names) does not count and is never dropped: it is what the next
   * checkpoint and the newest restore points stand on, and dropping it made every run over the cap
   * copy the whole workspace again and lose the run before it. Returns what it freed and dropped.
   */
  prune(maxBytes: number, keepRunId?: string): { freedBytes: number; droppedRuns: string[] } {
    if (this.blobs.totalBytes() <= maxBytes) return { freedBytes: 0, droppedRuns: [] };
    const current = this.index.hashes();
    const history = this.blobs.list().filter((b) => !current.has(b.hash));
    let total = history.reduce((n, b) => n + b.size, 0);
    const droppedRuns: string[] = [];
    const removed = new Set<string>();
    let freedBytes = 0;
    const runs = this.runs().reverse(); // oldest first
    for (const r of runs) {
      if (total <= maxBytes) break;
      if (r.runId === keepRunId) continue;
      removeTreeConfined(this.root, this.runDir(r.runId));
      droppedRuns.push(r.runId);
      const referenced = this.referencedBy(runs.filter((x) => !droppedRuns.includes(x.runId)).map((x) => x.runId));
      const unreferenced = history.filter((b) => !referenced.has(b.hash) && !removed.has(b.hash));
      this.blobs.removeAll(unreferenced.map((b) => b.hash));
      for (const b of unreferenced) {
        removed.add(b.hash);
        total -= b.size;
        freedBytes += b.size;
      }
    }
    return { freedBytes, droppedRuns };
  }

  /** Every blob hash the records of these runs name. */
  private referencedBy(runIds: readonly string[]): Set<string> {
    const refs = new Set<string>();
    for (const runId of runIds)
      for (const rec of this.records(runId)) for (const c of rec.changes) for (const s of [c.before, c.after]) if (s?.hash) refs.add(s.hash);
    return refs;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function mtime(p: string): number {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}
