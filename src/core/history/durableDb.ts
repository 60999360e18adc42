/**
 * The in-memory sql.js database plus everything that makes it durable and shareable:
 *
 * - Writes are applied in memory at once and kept as a pending op log (ops.ts).
 * - A debounced save (at most `maxPersistDelayMs` after the first unsaved write) exports the
 *   database and replaces the file atomically (backupFile.ts).
 * - Several processes may use one file (two VS Code windows, a window and the CLI). sql.js can only
 *   write whole files, so a plain save would drop the rows another process saved since we loaded.
 *   We chose "reload and merge under a short lock" over "one long-lived owner lock": every save
 *   takes the lock for the few milliseconds it needs, and if the file changed since we last read or
 *   wrote it, loads that file and re-applies our pending ops on top before exporting. Nobody waits
 *   for another window to close, nobody is read-only, and no row is lost. (An owner lock would make
 *   the second window read-only or force it to forward writes to the first.)
 * - A failed save keeps the data in memory, is reported once, and is retried with capped
 *   exponential backoff until it succeeds.
 */
import path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { UserError, errorMessage } from '../base';
import { saveWithBackup } from './backupFile';
import { FileLock } from './fileLock';
import { errnoCode, nodeFs, type FsLayer } from '../fs/fsLayer';
import { currentStamp, loadWithRecovery, openVerified, readSnapshot } from './loadDb';
import { moveAside } from '../fs/moveAside';
import { applyOp, type Op } from './ops';
import { migrate, schemaVersion, SCHEMA_VERSION } from './schema';
import { cleanStaleTempFiles } from './tempFiles';
import { ensureRealFolderChain, ignoreInStateFolder } from './stateFolder';
import type { SqlConn } from './sqlConn';
import type { HistoryReport } from './types';

export interface DurableOptions {
  path: string;
  fs?: FsLayer;
  now?: () => number;
  /** Quiet time after the last write before saving. */
  persistDelayMs?: number;
  /** Upper bound between the first unsaved write and its save, even under constant writes. */
  maxPersistDelayMs?: number;
  lockTimeoutMs?: number;
  lockStaleMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  onReport?: (report: HistoryReport) => void;
  /**
   * The workspace root when the database lives inside it: every folder from there down to the
   * database must be a real folder, never a link (attacks.state), checked at open and before every save.
   */
  confineTo?: string;
}

export class DurableDb {
  private pending: Op[] = [];
  private needsWrite: boolean;
  private stamp: string | undefined;
  private readonly fsx: FsLayer;
  private readonly lock: FileLock;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private firstPendingAt: number | undefined;
  private failures = 0;
  private readOnlyReason: string | undefined;
  private closed = false;
  /** Replaced when another process's save is merged in: never cache it across calls. */
  conn: SqlConn;
  lastPersistAt: number | null = null;
  lastPersistError: string | null = null;
  readonly warnings: HistoryReport[];

  static open(SQL: SqlJsStatic, options: DurableOptions): DurableDb {
    const fsx = options.fs ?? nodeFs;
    const now = options.now ?? Date.now;
    // Before reading anything: a linked state folder could make "move the damaged file aside" act outside the workspace.
    if (options.confineTo) ensureRealFolderChain(options.confineTo, path.dirname(options.path), fsx, { create: false });
    const lock = new FileLock(fsx, `${options.path}.lock`, {
      timeoutMs: options.lockTimeoutMs ?? 10_000,
      staleMs: options.lockStaleMs ?? 30_000,
    });
    const load = () => loadWithRecovery(fsx, SQL, options.path, now());
    let loaded: ReturnType<typeof load>;
    if (fsx.existsSync(path.dirname(options.path))) {
      cleanStaleTempFiles(fsx, options.path);
      // Under the lock so that we never move aside a file another process is replacing right now.
      // If the lock cannot be had (read-only folder, hung holder), load anyway: opening never fails.
      try {
        loaded = lock.withLock(load);
      } catch {
        loaded = load();
      }
    } else {
      loaded = load();
    }
    return new DurableDb(SQL, options, fsx, lock, now, loaded);
  }

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly options: DurableOptions,
    fsx: FsLayer,
    lock: FileLock,
    now: () => number,
    loaded: ReturnType<typeof loadWithRecovery>,
  ) {
    this.fsx = fsx;
    this.lock = lock;
    this.now = now;
    this.conn = loaded.conn;
    this.stamp = loaded.stamp;
    this.needsWrite = loaded.needsWrite;
    this.warnings = [...loaded.warnings];
    const version = schemaVersion(this.conn);
    if (version > SCHEMA_VERSION) {
      this.readOnlyReason = `the history database was written by a newer PatchPilot (schema ${version}, this one knows ${SCHEMA_VERSION}); changes are kept in memory only`;
      this.warnings.push({ kind: 'newer-schema', message: this.readOnlyReason });
    } else if (migrate(this.conn).length > 0 && this.stamp !== undefined) {
      this.needsWrite = true;
    }
    if (this.needsWrite) this.schedule();
  }

  get path(): string {
    return this.options.path;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Applies a write in memory and schedules its save. Throws (and records nothing) if SQLite rejects it. */
  apply(op: Op): number {
    this.assertOpen();
    if (!this.conn.inBatch) {
      this.conn.beginBatch();
      // Commit once the current burst of calls (the messages already queued) has been applied.
      setImmediate(() => this.commitBatch());
    }
    const changed = applyOp(this.conn, op);
    this.pending.push(op);
    this.schedule();
    return changed;
  }

  /** Ends the write batch; every read, save and close calls this first. */
  commitBatch(): void {
    if (!this.closed) this.conn.endBatch();
  }

  /** Picks up what other processes saved since we last looked. Cheap when nothing changed (one stat). */
  refresh(): void {
    this.assertOpen();
    this.commitBatch();
    this.reloadIfChanged(false);
  }

  fileBytes(): number {
    try {
      return this.fsx.statSync(this.options.path).size;
    } catch {
      return 0;
    }
  }

  /** Saves now. Rejects if the file cannot be written; the data stays in memory and background retries continue. */
  flush(): void {
    this.assertOpen();
    this.clearTimer();
    try {
      this.persistNow();
      this.onSaved();
    } catch (err) {
      this.onFailed(err);
      throw new UserError(`could not save the history database ${this.options.path}: ${errorMessage(err)}`, errnoCode(err) ?? 'persist-failed');
    }
  }

  /** Last-chance save on process exit: synchronous, never throws. Returns the error text, if any. */
  flushSyncQuietly(): string | undefined {
    if (this.closed) return undefined;
    try {
      this.persistNow();
      return undefined;
    } catch (err) {
      return errorMessage(err);
    }
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.clearTimer();
    this.closed = true;
    this.conn.close();
  }

  private persistNow(): void {
    this.commitBatch();
    if (this.pending.length === 0 && !this.needsWrite) return;
    if (this.readOnlyReason) throw new UserError(this.readOnlyReason, 'newer-schema');
    this.ensureFolder();
    this.lock.withLock(() => {
      this.reloadIfChanged(true);
      const bytes = this.conn.export();
      this.lock.touch();
      saveWithBackup(this.fsx, this.options.path, bytes, () => this.lock.verifyHeld());
      this.stamp = currentStamp(this.fsx, this.options.path);
    });
    this.pending = [];
    this.needsWrite = false;
    this.firstPendingAt = undefined;
    this.lastPersistAt = this.now();
  }

  /**
   * If the file is not the version we last read or wrote, load it and re-apply our pending ops on
   * top (their ids are globally unique, so nothing collides and nothing is applied twice).
   */
  private reloadIfChanged(locked: boolean): void {
    let stamp: string | undefined;
    try {
      stamp = currentStamp(this.fsx, this.options.path);
    } catch {
      return;
    }
    if (stamp === this.stamp) return;
    if (stamp === undefined) {
      // Deleted or moved away by someone: what we hold in memory is now the only copy.
      this.stamp = undefined;
      this.needsWrite = true;
      return;
    }
    let snap: ReturnType<typeof readSnapshot>;
    try {
      snap = readSnapshot(this.fsx, this.options.path);
    } catch (err) {
      if (locked) throw err; // the save fails and is retried; reads go on with what we have
      return;
    }
    if (!snap) return;
    const opened = openVerified(this.SQL, snap.bytes);
    if ('problem' in opened) {
      if (!locked) return; // decided at the next save, under the lock
      const movedTo = moveAside(this.options.path, this.now(), this.fsx);
      this.report({
        kind: 'recovered-from-backup',
        message: `History database ${this.options.path}: ${opened.problem}${movedTo ? `; moved to ${movedTo}` : ''}. Rewriting it from this window's copy.`,
        ...(movedTo ? { movedTo } : {}),
      });
      this.stamp = undefined;
      this.needsWrite = true;
      return;
    }
    const next = opened.conn;
    if (schemaVersion(next) > SCHEMA_VERSION) {
      next.close();
      this.readOnlyReason ??= `another PatchPilot wrote a newer schema to ${this.options.path}; changes are kept in memory only`;
      this.report({ kind: 'newer-schema', message: this.readOnlyReason });
      this.stamp = snap.stamp;
      return;
    }
    migrate(next);
    next.transaction(() => {
      for (const op of this.pending) applyOp(next, op);
    });
    this.conn.close();
    this.conn = next;
    this.stamp = snap.stamp;
  }

  private ensureFolder(): void {
    const dir = path.dirname(this.options.path);
    if (this.options.confineTo) ensureRealFolderChain(this.options.confineTo, dir, this.fsx);
    else this.fsx.mkdirSync(dir, { recursive: true });
    // The database, its backup, lock, temp and corrupt copies never belong in git.
    ignoreInStateFolder(dir, `${path.basename(this.options.path)}*`, this.fsx);
  }

  private schedule(): void {
    if (this.closed || this.failures > 0) return; // a retry is already scheduled and will include this write
    const now = this.now();
    this.firstPendingAt ??= now;
    const delay = this.options.persistDelayMs ?? 1_000;
    const maxDelay = this.options.maxPersistDelayMs ?? 2_000;
    const due = Math.min(now + delay, this.firstPendingAt + maxDelay);
    this.setTimer(Math.max(0, due - now));
  }

  private backgroundPersist(): void {
    this.timer = undefined;
    if (this.closed) return;
    try {
      this.persistNow();
      this.onSaved();
    } catch (err) {
      this.onFailed(err);
    }
  }

  private onSaved(): void {
    if (this.failures > 0) this.report({ kind: 'persist-recovered', message: `History database saved again (${this.options.path}).` });
    this.failures = 0;
    this.lastPersistError = null;
  }

  private onFailed(err: unknown): void {
    this.failures++;
    this.lastPersistError = errorMessage(err);
    if (this.failures === 1) {
      this.report({
        kind: 'persist-failed',
        message: `Could not save the history database ${this.options.path}: ${errorMessage(err)}. Changes are kept in memory and the save is retried.`,
      });
    }
    const base = this.options.retryBaseMs ?? 250;
    const max = this.options.retryMaxMs ?? 30_000;
    const delay = Math.min(max, base * 2 ** Math.min(this.failures - 1, 20));
    this.setTimer(delay / 2 + Math.random() * (delay / 2));
  }

  private setTimer(ms: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => this.backgroundPersist(), ms);
    // Never keeps a process alive by itself: the exit hook saves what is left.
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private report(report: HistoryReport): void {
    this.options.onReport?.(report);
  }

  private assertOpen(): void {
    if (this.closed) throw new UserError('the history store is closed', 'closed');
  }
}
