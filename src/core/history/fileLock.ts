/**
 * A short-lived cross-process lock next to the database: `history.db.lock`, created exclusively
 * (O_EXCL), holding {pid, host, token}. Its mtime is the heartbeat: the holder touches it during
 * long saves.
 *
 * Takeover rules: a lock is stale when its process is gone (same host, pid not alive) or when its
 * heartbeat is older than `staleMs` (another host, a reused pid, a frozen process). A live holder
 * with a fresh heartbeat is never taken over; the waiter times out instead.
 *
 * The takeover race (two waiters judging the same stale lock) is closed by renaming the stale file
 * to a private name and checking that what was moved is the very lock judged stale; if it was a
 * fresh lock created in between, it is put back at once. The holder also re-checks its token just
 * before it renames the new database into place (fencing), so even a lost lock cannot make two
 * writers overwrite each other.
 *
 * Every touch of the lock's files (create, heartbeat, takeover, release, and the reads that judge
 * them) goes through the confined writer (fs/confinedWrite.ts): inside the folder opened from `root`
 * without following a link, so a state folder swapped for a link out is refused, never written through.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { withConfinedFolder } from '../fs/confinedWrite';
import { errnoCode, sleepSync, type FsLayer } from '../fs/fsLayer';

const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP']);

export interface LockOptions {
  /** How long to wait for a live holder before giving up. */
  timeoutMs: number;
  /** Heartbeat age after which a lock is considered abandoned. */
  staleMs: number;
}

export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  since: number;
}

export class LockTimeoutError extends Error {
  readonly code = 'ELOCKED';
  constructor(
    readonly lockPath: string,
    readonly holder: LockOwner | undefined,
  ) {
    super(`the history database is locked by ${holder ? `process ${holder.pid} on ${holder.host}` : 'another process'} (${lockPath})`);
    this.name = 'LockTimeoutError';
  }
}

export class LockLostError extends Error {
  readonly code = 'ELOCKLOST';
  constructor(readonly lockPath: string) {
    super(`lost the history lock ${lockPath} before the save completed; will retry`);
    this.name = 'LockLostError';
  }
}

export class FileLock {
  private token: string | undefined;
  private content = '';
  /** The folder every folder of the lock's path is opened from, never through a link (the workspace, or the lock's own folder). */
  private readonly root: string;

  constructor(
    private readonly fsx: FsLayer,
    readonly lockPath: string,
    private readonly options: LockOptions,
    root?: string,
  ) {
    this.root = root ?? path.dirname(lockPath);
  }

  /**
   * Runs `fn` with the lock file's name inside its folder opened from the root without following a
   * link (LinkedFolderError for a link on the way). `create: false`: a missing folder means no lock, and `fn` is not run.
   */
  private inFolder<T>(fn: (lockFile: string) => T, create = true): T | undefined {
    let result: T | undefined;
    withConfinedFolder(this.root, path.dirname(this.lockPath), (dir) => (result = fn(path.join(dir, path.basename(this.lockPath)))), create);
    return result;
  }

  get held(): boolean {
    return this.token !== undefined;
  }

  /** Runs fn while holding the lock. Re-entrant within one holder. */
  withLock<T>(fn: () => T): T {
    if (this.held) return fn();
    this.acquire();
    try {
      return fn();
    } finally {
      this.release();
    }
  }

  acquire(): void {
    const deadline = Date.now() + this.options.timeoutMs;
    let delay = 2;
    for (;;) {
      const token = randomUUID();
      const content = JSON.stringify({ pid: process.pid, host: os.hostname(), token, since: Date.now() } satisfies LockOwner);
      if (this.inFolder((lockFile) => this.tryCreate(lockFile, content))) {
        this.token = token;
        this.content = content;
        return;
      }
      const seen = this.inFolder((lockFile) => this.readLock(lockFile), false);
      if (seen && this.isStale(seen)) {
        this.inFolder((lockFile) => this.takeOver(lockFile, seen.raw), false);
        continue;
      }
      if (Date.now() >= deadline) throw new LockTimeoutError(this.lockPath, seen?.owner);
      sleepSync(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 50);
    }
  }

  /** Heartbeat: tells waiters the holder is alive during a long save. */
  touch(): void {
    if (!this.held) return;
    const now = new Date();
    try {
      this.inFolder((lockFile) => this.fsx.utimesSync(lockFile, now, now), false);
    } catch {
      // verifyHeld() reports a lost lock where it matters
    }
  }

  /** Fencing check right before an irreversible step. */
  verifyHeld(): void {
    if (!this.held) throw new LockLostError(this.lockPath);
    let raw: string | undefined;
    try {
      raw = this.inFolder((lockFile) => this.fsx.readFileSync(lockFile, 'utf8'), false);
    } catch {
      throw new LockLostError(this.lockPath);
    }
    if (raw !== this.content) throw new LockLostError(this.lockPath);
  }

  release(): void {
    if (!this.held) return;
    try {
      // Only remove our own lock: if it was taken over meanwhile, the file belongs to someone else.
      this.inFolder((lockFile) => {
        if (this.fsx.readFileSync(lockFile, 'utf8') === this.content) this.fsx.unlinkSync(lockFile);
      }, false);
    } catch {
      // already gone
    } finally {
      this.token = undefined;
      this.content = '';
    }
  }

  /** Writes the full content to a private file, then links it into place: waiters never see a half-written lock. */
  private tryCreate(lockFile: string, content: string): boolean {
    const tmp = `${lockFile}.tmp-${process.pid}-${randomUUID()}`;
    this.fsx.writeFileSync(tmp, content, { flag: 'wx' });
    try {
      this.fsx.linkSync(tmp, lockFile);
      return true;
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') return false;
      if (!LINK_UNSUPPORTED.has(errnoCode(err) ?? '')) throw err;
      return this.tryCreateExclusive(lockFile, content);
    } finally {
      try {
        this.fsx.unlinkSync(tmp);
      } catch {
        // already gone
      }
    }
  }

  /** For file systems without hard links: O_EXCL create; a half-written lock is judged by its heartbeat. */
  private tryCreateExclusive(lockFile: string, content: string): boolean {
    let fd: number;
    try {
      fd = this.fsx.openSync(lockFile, 'wx', 0o644);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') return false;
      throw err;
    }
    try {
      this.fsx.writeSync(fd, content);
    } finally {
      this.fsx.closeSync(fd);
    }
    return true;
  }

  private readLock(lockFile: string): { raw: string; owner: LockOwner | undefined; mtimeMs: number } | undefined {
    try {
      const mtimeMs = this.fsx.statSync(lockFile).mtimeMs;
      const raw = this.fsx.readFileSync(lockFile, 'utf8');
      return { raw, owner: parseOwner(raw), mtimeMs };
    } catch {
      return undefined; // released between our attempts: just retry
    }
  }

  private isStale(seen: { owner: LockOwner | undefined; mtimeMs: number }): boolean {
    const { owner } = seen;
    if (owner && owner.host === os.hostname() && !pidAlive(owner.pid)) return true;
    // An unreadable (half-written) lock or a holder elsewhere: only the heartbeat can tell.
    return Date.now() - seen.mtimeMs > this.options.staleMs;
  }

  private takeOver(lockFile: string, staleRaw: string): void {
    const aside = `${lockFile}.stale-${randomUUID()}`;
    try {
      this.fsx.renameSync(lockFile, aside);
    } catch {
      return; // someone else removed it first
    }
    let moved = '';
    try {
      moved = this.fsx.readFileSync(aside, 'utf8');
    } catch {
      // unreadable: treat as the stale one
    }
    if (moved !== staleRaw && moved !== '') {
      // We moved a fresh lock created after our check: give it back to its holder.
      try {
        this.fsx.linkSync(aside, lockFile);
      } catch {
        // a third process created a lock meanwhile; the displaced holder's fencing check will fail and it retries
      }
    }
    try {
      this.fsx.unlinkSync(aside);
    } catch {
      // nothing to clean
    }
  }
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const v = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string') return v as LockOwner;
  } catch {
    // half-written
  }
  return undefined;
}

/** kill(pid, 0) probes without signalling. EPERM means it exists but belongs to another user. */
export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  if (!Number.isInteger(pid) || pid <= 0) return false; // 0 and negatives name process groups, not a process
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM';
  }
}
