/**
 * Which workspace paths may have changed since the last look, from inotify (one `fs.watch` per
 * folder, all on libuv's one inotify descriptor, so events arrive in order): after the first walk, a
 * checkpoint costs what the step changed, not what the workspace holds. `settle()` writes a marker in
 * a watched folder of its own and waits for its event: every change made before it has then been seen.
 * When it cannot be trusted (a watch failed, too many events for the kernel's queue) it says so and
 * the caller walks the workspace instead.
 */
import { watch, type FSWatcher, mkdirSync, readdirSync, rmSync, writeFileSync, lstatSync } from 'node:fs';
import path from 'node:path';

/** Under the kernel's default queue (16,384): more events than this in one interval may have overflowed it. */
const MAX_EVENTS = 8000;

export class ChangeFeed {
  private readonly watchers = new Map<string, FSWatcher>();
  private dirty = new Set<string>();
  private events = 0;
  private broken = false;
  private markerSeq = 0;
  private waiting: { name: string; resolve: () => void } | undefined;
  private markerWatch: FSWatcher | undefined;

  constructor(
    private readonly root: string,
    private readonly markerDir: string,
    private readonly skip: () => (rel: string, isDir: boolean) => boolean,
  ) {}

  /** Watches every folder the rules keep; false when watching is not possible here (then nothing is watched). */
  start(): boolean {
    try {
      mkdirSync(this.markerDir, { recursive: true });
      this.markerWatch = watch(this.markerDir, { persistent: false }, (_e, name) => {
        if (this.waiting && name === this.waiting.name) this.waiting.resolve();
      });
      this.watchTree('', this.skip());
      return !this.broken;
    } catch {
      this.close();
      return false;
    }
  }

  private watchTree(dir: string, skip: (rel: string, isDir: boolean) => boolean): void {
    if (this.watchers.has(dir)) return;
    try {
      const w = watch(path.join(this.root, dir), { persistent: false }, (_event, name) => this.onEvent(dir, name));
      w.on('error', () => this.forget(dir));
      this.watchers.set(dir, w);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.broken = true; // ENOSPC: out of watches
      return;
    }
    for (const d of safeReaddir(path.join(this.root, dir))) {
      if (!d.isDirectory()) continue;
      const rel = dir ? `${dir}/${d.name}` : d.name;
      if (!skip(rel, true)) this.watchTree(rel, skip);
    }
  }

  private onEvent(dir: string, name: string | Buffer | null): void {
    if (++this.events > MAX_EVENTS) this.broken = true;
    if (name === null) {
      this.broken = true; // the kernel did not say which entry: anything in the folder may have changed
      return;
    }
    const rel = dir ? `${dir}/${name.toString()}` : name.toString();
    const skip = this.skip();
    if (skip(rel, false)) return;
    this.dirty.add(rel);
    // A new folder (made, or moved in) is watched from now on; what it already holds counts as changed.
    let st;
    try {
      st = lstatSync(path.join(this.root, rel));
    } catch {
      this.forgetUnder(rel);
      return;
    }
    if (st.isDirectory() && !this.watchers.has(rel) && !skip(rel, true)) {
      this.watchTree(rel, skip);
      this.dirty.add(`${rel}/`);
    }
  }

  private forget(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private forgetUnder(rel: string): void {
    for (const dir of [...this.watchers.keys()]) if (dir === rel || dir.startsWith(`${rel}/`)) this.forget(dir);
  }

  /** Resolves once every change made before the call has been seen (or after a second, then not trusted). */
  async settle(): Promise<void> {
    const name = `.settle-${process.pid}-${++this.markerSeq}`;
    const seen = new Promise<void>((resolve) => (this.waiting = { name, resolve }));
    writeFileSync(path.join(this.markerDir, name), '');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.broken = true;
        resolve();
      }, 1000);
    });
    await Promise.race([seen, timeout]);
    clearTimeout(timer);
    this.waiting = undefined;
    try {
      rmSync(path.join(this.markerDir, name), { force: true });
    } catch {
      /* left for the next start */
    }
  }

  /**
   * The paths that may have changed since the last take (a folder's whole content as `dir/`), or
   * undefined when the feed missed something and the caller must walk. Starts the next interval.
   */
  take(): Set<string> | undefined {
    const dirty = this.broken ? undefined : this.dirty;
    this.dirty = new Set();
    this.events = 0;
    this.broken = false;
    return dirty;
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.markerWatch?.close();
  }
}

function safeReaddir(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
