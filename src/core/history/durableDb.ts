/**
 * The in-memory sql.js database plus everything that makes it durable and shareable:
 *
 * - Writes are applied in memory at once and kept as a pending op log (ops.ts).
 * - A debounced save (at most `maxPersistDelayMs` after the first unsaved write) appends the
 *   pending ops to the journal (journal.ts) as one checksummed line. Only when the journal has
 *   grown past `journalFoldBytes` (or there is no file yet, or it must be rewritten after damage)
 *   is the database exported and the file replaced atomically (backupFile.ts): a "fold", after
 *   which the journal starts again empty. Every write goes through the confined writer
 *   (fs/confinedWrite.ts): no folder on the way can be a link out of the state folder.
 * - Several processes may use one file (two VS Code windows, a window and the CLI). sql.js can only
 *   write whole files, so a plain save would drop the rows another process saved since we loaded.
 *   We chose "reload and merge under a short lock" over "one long-lived owner lock": every save
 *   takes the lock for the few milliseconds it needs, first applies the journal lines others
 *   appended since we last looked, and if the file itself changed (another process folded), loads
 *   it with its journal and re-applies our pending ops on top. Nobody waits for another window to
 *   close, nobody is read-only, and no row is lost. (An owner lock would make the second window
 *   read-only or force it to forward writes to the first.)
 * - A failed save keeps the data in memory, is reported once, and is retried with capped
 *   exponential backoff until it succeeds.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { UserError, errorMessage } from '../base';
import { saveWithBackup } from './backupFile';
import { FileLock } from './fileLock';
import { errnoCode, nodeFs, type FsLayer } from '../fs/fsLayer';
import { currentStamp, loadUnderLock, openFile, PAGED_FROM_BYTES, readJournal, type LoadResult } from './loadDb';
import { fingerprintOf, journalRecord, replayRecords, type JournalRead } from './journal';
import { pagingAvailable } from './diskPages';
import { JournalFile } from './journalFile';
import { withConfinedFolder } from '../fs/confinedWrite';
import { moveAside } from '../fs/moveAside';
import { applyOp, type Op } from './ops';
import { migrate, schemaVersion, SCHEMA_VERSION } from './schema';
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
  /** Journal size past which a save folds it into the file (0: every save rewrites the file). Default: half the file, within 256 KiB-4 MiB. */
  journalFoldBytes?: number;
  /** Files from this size on are read a page at a time (loadDb.ts PAGED_FROM_BYTES); smaller ones whole. */
  pagedFromBytes?: number;
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
  private fingerprint: string | undefined; // of the file version `conn` came from or was last folded into (journal.ts)
  private readonly journal: JournalFile;
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
    const root = options.confineTo ?? path.dirname(options.path);
    const lock = new FileLock(fsx, `${options.path}.lock`, { timeoutMs: options.lockTimeoutMs ?? 10_000, staleMs: options.lockStaleMs ?? 30_000 }, root);
    const loaded = loadUnderLock(fsx, SQL, options.path, now(), lock, root, options.pagedFromBytes);
    return new DurableDb(SQL, options, fsx, lock, now, loaded);
  }

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly options: DurableOptions,
    fsx: FsLayer,
    lock: FileLock,
    now: () => number,
    loaded: LoadResult,
  ) {
    this.fsx = fsx;
    this.lock = lock;
    this.journal = new JournalFile(options.path, options.confineTo ?? path.dirname(options.path), fsx);
    this.now = now;
    this.conn = loaded.conn;
    this.stamp = loaded.stamp;
    this.needsWrite = loaded.needsWrite;
    this.warnings = [...loaded.warnings];
    this.fingerprint = loaded.fingerprint;
    const version = schemaVersion(this.conn);
    if (version > SCHEMA_VERSION) {
      this.readOnlyReason = `the history database was written by a newer PatchPilot (schema ${version}, this one knows ${SCHEMA_VERSION}); changes are kept in memory only`;
      this.warnings.push({ kind: 'newer-schema', message: this.readOnlyReason });
    } else if (migrate(this.conn).length > 0 && this.stamp !== undefined) {
      this.needsWrite = true;
    }
    this.adoptJournal(this.conn, loaded.journal, true, (r) => this.warnings.push(r));
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
      const record = this.pending.length > 0 ? journalRecord(this.pending) : '';
      if (this.mustFold(Buffer.byteLength(record))) this.fold();
      else if (record) {
        this.lock.verifyHeld();
        this.journal.append(record, this.fingerprint!);
      }
    });
    this.pending = [];
    this.needsWrite = false;
    this.firstPendingAt = undefined;
    this.lastPersistAt = this.now();
  }

  private mustFold(recordBytes: number): boolean {
    if (this.needsWrite || this.journal.torn || this.stamp === undefined || this.fingerprint === undefined) return true;
    const size = (this.journal.continues(this.fingerprint) ? this.journal.size : 0) + recordBytes;
    return size > (this.options.journalFoldBytes ?? Math.min(4 << 20, Math.max(256 << 10, this.fileBytes() / 2)));
  }

  /**
   * Writes the whole database to the file (keeping the previous one as backup) and starts an empty
   * journal for it. A paged database is written from its pages a part at a time, then read again
   * from the new file, which drops the pages it held in memory.
   */
  private fold(): void {
    // A fresh id in the header page: no two folds share a fingerprint, even with equal contents.
    this.conn.exec(`PRAGMA application_id = ${randomBytes(4).readInt32LE(0)}`);
    const data = this.conn.contents();
    this.lock.touch();
    const base = path.basename(this.options.path);
    withConfinedFolder(this.options.confineTo ?? path.dirname(this.options.path), path.dirname(this.options.path), (dir) =>
      saveWithBackup(this.fsx, path.join(dir, base), data, () => this.lock.verifyHeld()),
    );
    const pagedFromBytes = this.options.pagedFromBytes ?? PAGED_FROM_BYTES;
    const reopen = !(data instanceof Uint8Array) || (pagingAvailable() && data.length >= pagedFromBytes);
    const reopened = reopen ? openFile(this.fsx, this.SQL, this.options.path, { journalBase: undefined, trusted: true, pagedFromBytes }) : undefined;
    if (reopened && 'conn' in reopened) {
      this.conn.close();
      this.conn = reopened.conn;
      this.stamp = reopened.stamp;
      this.fingerprint = reopened.fingerprint;
    } else {
      if (!(data instanceof Uint8Array)) throw new Error(`the history file just written cannot be read again (${reopened ? reopened.problem : 'it is gone'})`);
      this.stamp = currentStamp(this.fsx, this.options.path);
      this.fingerprint = fingerprintOf(data);
    }
    // If this write is lost (killed right here), the old journal no longer matches the file: the
    // next open checks the file and does not replay the journal, whose ops the file already holds.
    this.journal.restart(this.fingerprint);
  }

  /** Replays a journal read from disk onto `conn` when it continues the file `conn` came from; a torn tail is reported and folded away at the next save. */
  private adoptJournal(conn: SqlConn, read: JournalRead | undefined, locked: boolean, onTorn: (r: HistoryReport) => void): void {
    const { records, tornBytes } = this.journal.adopt(read, this.fingerprint, locked);
    replayRecords(conn, records);
    if (tornBytes === 0) return;
    onTorn({
      kind: 'journal-torn-tail',
      message: `History journal ${this.journal.path}: dropped an incomplete last entry (${tornBytes} bytes, a save cut short); everything saved before it is kept.`,
    });
    this.schedule();
  }

  /**
   * If the file is not the version we last read or wrote, load it with its journal and re-apply our
   * pending ops on top (their ids are globally unique, so nothing collides and nothing is applied
   * twice); if only the journal grew, apply its new lines.
   */
  private reloadIfChanged(locked: boolean): void {
    let stamp: string | undefined;
    try {
      stamp = currentStamp(this.fsx, this.options.path);
    } catch {
      return;
    }
    if (stamp === this.stamp) {
      const read = stamp === undefined ? undefined : this.journal.readNew(this.fingerprint);
      if (read) this.adoptJournal(this.conn, read, locked, (r) => this.report(r));
      return;
    }
    if (stamp === undefined) {
      // Deleted or moved away by someone: what we hold in memory is now the only copy.
      this.stamp = undefined;
      this.needsWrite = true;
      return;
    }
    const journal = readJournal(this.fsx, this.options.path);
    let opened: ReturnType<typeof openFile>;
    try {
      opened = openFile(this.fsx, this.SQL, this.options.path, { journalBase: journal?.base, pagedFromBytes: this.options.pagedFromBytes });
    } catch (err) {
      if (locked) throw err; // the save fails and is retried; reads go on with what we have
      return;
    }
    if (!opened) return;
    if ('problem' in opened) {
      if (!locked) return; // decided at the next save, under the lock
      const movedTo = moveAside(this.options.path, this.now(), this.fsx, this.options.confineTo ?? path.dirname(this.options.path));
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
      this.stamp = opened.stamp;
      return;
    }
    migrate(next);
    this.fingerprint = opened.fingerprint;
    this.adoptJournal(next, journal, locked, (r) => this.report(r));
    next.transaction(() => {
      for (const op of this.pending) applyOp(next, op);
    });
    this.conn.close();
    this.conn = next;
    this.stamp = opened.stamp;
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
