/**
 * Which workspace paths may have changed since a consumer last looked, from inotify (one `fs.watch`
 * per folder, all on libuv's one inotify descriptor, so events arrive in order): after a first walk,
 * a checkpoint and the protected-path guard cost what a step changed, not what the workspace holds.
 * One feed per workspace; each consumer reads it through its own cursor (the checkpointer, the guard's
 * baseline, one per running command), so none takes away what another has not seen yet.
 * Every folder is watched but `.git` (anywhere) and the state folder: ignored ones too, since the guard
 * masks ignored files and protects paths inside git-ignored folders; a consumer filters what it keeps.
 * `settle()` writes a marker in a watched folder of its own and waits for its event: every change made
 * before it has then been seen. When a cursor cannot be trusted (a watch failed, too many events for
 * the kernel's queue) its `take()` says so and the consumer walks instead.
 */
import { watch, type FSWatcher, mkdirSync, readdirSync, rmSync, writeFileSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { TimeSlicer } from '../base/timeSlicer';

/** Under the kernel's default queue (16,384): more events than this in one interval may have overflowed it. */
const MAX_EVENTS = 8000;

export interface FeedCursor {
  /**
   * The paths that may have changed since the cursor was made or last taken (a folder's whole content
   * as `dir/`), or undefined when the feed missed something and the consumer must walk. Starts the next interval.
   */
  take(): Set<string> | undefined;
  close(): void;
}

class Cursor implements FeedCursor {
  dirty = new Set<string>();
  events = 0;
  broken = false;
  constructor(private readonly onClose: (c: Cursor) => void) {}

  take(): Set<string> | undefined {
    const dirty = this.broken ? undefined : this.dirty;
    this.dirty = new Set();
    this.events = 0;
    this.broken = false;
    return dirty;
  }

  close(): void {
    this.onClose(this);
  }
}

export class ChangeFeed {
  /** Watched folders (workspace-relative, '' = the root) with the inode watched: a folder replaced under the same name is watched again. */
  private readonly watchers = new Map<string, { w: FSWatcher; ino: number }>();
  private readonly cursors = new Set<Cursor>();
  private started: boolean | undefined;
  private starting: Promise<boolean> | undefined;
  private markerSeq = 0;
  private readonly waiting = new Map<string, () => void>();
  private markerWatch: FSWatcher | undefined;

  /**
   * @param stateRel the state folder, workspace-relative: not watched (PatchPilot writes there during steps; the guard lists it apart).
   * @param markerDir absolute folder for `settle()`'s markers (in the state folder).
   */
  constructor(
    private readonly root: string,
    private readonly markerDir: string,
    readonly stateRel: string,
  ) {}

  /**
   * Watches every folder but `.git` and the state folder, once; false when watching is not possible
   * here (then nothing is watched). Asynchronous: a watch per folder of a large workspace (thousands)
   * takes seconds, so the folders are watched in slices that give the event loop its turns.
   */
  start(): Promise<boolean> {
    return (this.starting ??= this.startWatching());
  }

  private async startWatching(): Promise<boolean> {
    try {
      mkdirSync(this.markerDir, { recursive: true });
      this.markerWatch = watch(this.markerDir, { persistent: false }, (_e, name) => {
        const done = name === null ? undefined : this.waiting.get(name.toString());
        done?.();
      });
      let ok = true;
      const slicer = new TimeSlicer();
      const closed = () => this.started === false; // close() while the folders were being watched
      for (const queue = ['']; queue.length > 0 && ok && !closed(); await slicer.turn()) queue.push(...this.watchOne(queue.pop()!, () => (ok = false)));
      this.started = ok && !closed();
    } catch {
      this.started = false;
    }
    if (!this.started) this.close();
    return this.started;
  }

  /** A cursor that sees every change from now on (a broken one when the feed is not running). */
  cursor(): FeedCursor {
    const c = new Cursor((x) => this.cursors.delete(x));
    if (!this.started) c.broken = true;
    this.cursors.add(c);
    return c;
  }

  /** Not watched: the state folder and `.git`, wherever it is (names there are still reported by their parent's watch). */
  private unwatched(rel: string): boolean {
    const s = this.stateRel;
    return rel === s || rel.startsWith(`${s}/`) || rel === '.git' || rel.endsWith('/.git') || rel.startsWith('.git/') || rel.includes('/.git/');
  }

  private watchTree(dir: string, failed: () => void): void {
    for (const sub of this.watchOne(dir, failed)) this.watchTree(sub, failed);
  }

  /** Watches one folder; returns its subfolders still to watch. */
  private watchOne(dir: string, failed: () => void): string[] {
    if (this.watchers.has(dir)) return [];
    try {
      const abs = path.join(this.root, dir);
      const ino = lstatSync(abs).ino;
      const w = watch(abs, { persistent: false }, (_event, name) => this.onEvent(dir, name));
      w.on('error', () => this.forget(dir));
      this.watchers.set(dir, { w, ino });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') failed(); // ENOSPC: out of watches
      return [];
    }
    const subs: string[] = [];
    for (const d of safeReaddir(path.join(this.root, dir))) {
      if (!d.isDirectory()) continue;
      const rel = dir ? `${dir}/${d.name}` : d.name;
      if (!this.unwatched(rel)) subs.push(rel);
    }
    return subs;
  }

  private breakAll(): void {
    for (const c of this.cursors) c.broken = true;
  }

  private onEvent(dir: string, name: string | Buffer | null): void {
    let live = false;
    for (const c of this.cursors) {
      if (++c.events > MAX_EVENTS) c.broken = true;
      live ||= !c.broken;
    }
    if (name === null) {
      this.breakAll(); // the kernel did not say which entry: anything in the folder may have changed
      return;
    }
    if (!live) return; // every cursor walks anyway
    const rel = dir ? `${dir}/${name.toString()}` : name.toString();
    // A broken cursor (or one left open by a consumer that failed) gathers nothing more: it walks at its next take.
    for (const c of this.cursors) if (!c.broken) c.dirty.add(rel);
    if (this.unwatched(rel)) return;
    // A new folder (made, moved in, or put in place of one under the same name) is watched from now on; what it holds counts as changed.
    let st;
    try {
      st = lstatSync(path.join(this.root, rel));
    } catch {
      this.forgetUnder(rel);
      return;
    }
    const watched = this.watchers.get(rel);
    if (!st.isDirectory()) {
      if (watched) this.forgetUnder(rel);
      return;
    }
    if (watched?.ino === st.ino) return;
    if (watched) this.forgetUnder(rel);
    this.watchTree(rel, () => this.breakAll());
    for (const c of this.cursors) if (!c.broken) c.dirty.add(`${rel}/`);
  }

  private forget(dir: string): void {
    this.watchers.get(dir)?.w.close();
    this.watchers.delete(dir);
  }

  private forgetUnder(rel: string): void {
    for (const dir of [...this.watchers.keys()]) if (dir === rel || dir.startsWith(`${rel}/`)) this.forget(dir);
  }

  /** Resolves once every change made before the call has been seen (or after a second; then every cursor walks). */
  async settle(): Promise<void> {
    if (!this.started) return;
    const name = `.settle-${process.pid}-${++this.markerSeq}`;
    const seen = new Promise<void>((resolve) => this.waiting.set(name, resolve));
    let timer: NodeJS.Timeout | undefined;
    try {
      writeFileSync(path.join(this.markerDir, name), '');
    } catch {
      this.breakAll();
      this.waiting.delete(name);
      return;
    }
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.breakAll();
        resolve();
      }, 1000);
    });
    await Promise.race([seen, timeout]);
    clearTimeout(timer);
    this.waiting.delete(name);
    try {
      rmSync(path.join(this.markerDir, name), { force: true });
    } catch {
      /* left for the next start */
    }
  }

  close(): void {
    for (const { w } of this.watchers.values()) w.close();
    this.watchers.clear();
    this.markerWatch?.close();
    this.markerWatch = undefined;
    this.breakAll();
    this.started = false;
    this.starting = Promise.resolve(false);
  }
}

function safeReaddir(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
