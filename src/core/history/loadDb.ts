/**
 * Reading the database file and deciding whether it can be trusted. sql.js opens garbage lazily
 * (the error comes at the first query), so a file runs `PRAGMA quick_check` before its bytes are
 * accepted, unless it is exactly the file a fold wrote: its fingerprint is the one its journal
 * continues (journal.ts). quick_check was 62-73% of the history worker's CPU when it ran on every
 * open. A damaged file is moved aside as `history.db.corrupt-<time>`, never deleted: the user may
 * want it back.
 */
import path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import type { FileLock } from './fileLock';
import { startJournalIfNone } from './journalFile';
import { cleanStaleTempFiles } from './tempFiles';
import { backupPath } from './backupFile';
import { errnoCode, type FsLayer } from '../fs/fsLayer';
import { moveAside } from '../fs/moveAside';
import { SqlConn } from './sqlConn';
import type { HistoryReport } from './types';
import { errorMessage } from '../base';
import { fingerprintOf, journalPath, parseJournal, type JournalRead } from './journal';

const SQLITE_HEADER = 'SQLite format 3\0';

export interface FileSnapshot {
  bytes: Uint8Array;
  /** Identity of the file version read (device, inode, size, mtime): another save changes it. */
  stamp: string;
}

/** Reads the file and its identity from one descriptor, so the stamp always matches the bytes. */
export function readSnapshot(fsx: FsLayer, file: string): FileSnapshot | undefined {
  let fd: number;
  try {
    fd = fsx.openSync(file, 'r');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const st = fsx.fstatSync(fd, { bigint: true });
    if (st.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
    return { bytes: fsx.readFileSync(fd), stamp: stampOf(st) };
  } finally {
    fsx.closeSync(fd);
  }
}

export function currentStamp(fsx: FsLayer, file: string): string | undefined {
  try {
    return stampOf(fsx.statSync(file, { bigint: true }));
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

function stampOf(st: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint }): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
}

/** Opens bytes as a database if they are one and pass quick_check (skipped with `check: false`); otherwise says why not. */
export function openVerified(SQL: SqlJsStatic, bytes: Uint8Array, check = true): { conn: SqlConn } | { problem: string } {
  if (bytes.length === 0) return { problem: 'the file is empty (zero bytes)' };
  if (bytes.length < 100 || Buffer.from(bytes.subarray(0, 16)).toString('latin1') !== SQLITE_HEADER) {
    return { problem: 'the file is not a SQLite database' };
  }
  let conn: SqlConn | undefined;
  try {
    conn = new SqlConn(new SQL.Database(bytes));
    if (!check) return { conn };
    const rows = conn.all<{ quick_check: string }>('PRAGMA quick_check');
    const verdict = rows.map((r) => r.quick_check).join('; ');
    if (verdict !== 'ok') throw new Error(verdict);
    return { conn };
  } catch (err) {
    conn?.close();
    return { problem: `the database is damaged (${errorMessage(err)})` };
  }
}

export interface LoadResult {
  conn: SqlConn;
  /** Stamp of the file the data came from; undefined when nothing usable was on disk. */
  stamp: string | undefined;
  warnings: HistoryReport[];
  /** The file on disk does not hold this data (restored from backup or fresh after damage). */
  needsWrite: boolean;
  /** Fingerprint of the file the data came from (journal.ts); undefined when nothing usable was on disk. */
  fingerprint: string | undefined;
  /** The journal as read, when there is one. */
  journal: JournalRead | undefined;
}

/** Reads and parses the journal; undefined when there is none (or it cannot be read: then the next save starts a new one). */
export function readJournal(fsx: FsLayer, file: string): JournalRead | undefined {
  try {
    return parseJournal(fsx.readFileSync(journalPath(file)));
  } catch {
    return undefined;
  }
}

/**
 * Loads the database under the lock, so that we never move aside a file another process is
 * replacing right now. If the lock cannot be had (read-only folder, hung holder), loads anyway:
 * opening never fails.
 */
export function loadUnderLock(fsx: FsLayer, SQL: SqlJsStatic, file: string, now: number, lock: FileLock, root: string): LoadResult {
  const load = () => loadWithRecovery(fsx, SQL, file, now, root);
  if (!fsx.existsSync(path.dirname(file))) return load();
  cleanStaleTempFiles(fsx, file, root);
  try {
    return lock.withLock(() => {
      const loaded = load();
      return { ...loaded, journal: startJournalIfNone(root, file, loaded.fingerprint, loaded.journal) };
    });
  } catch {
    return load();
  }
}

/** Loads the database, recovering from damage. Call with the lock held: it may move files. */
export function loadWithRecovery(fsx: FsLayer, SQL: SqlJsStatic, file: string, now: number, root?: string): LoadResult {
  let snap: FileSnapshot | undefined;
  let problem: string | undefined;
  try {
    snap = readSnapshot(fsx, file);
  } catch (err) {
    problem = `cannot read it (${errorMessage(err)})`;
  }
  const journal = readJournal(fsx, file);
  const none = { fingerprint: undefined, journal };
  if (!snap && !problem) return { conn: new SqlConn(new SQL.Database()), stamp: undefined, warnings: [], needsWrite: false, ...none };
  if (snap) {
    const fingerprint = fingerprintOf(snap.bytes);
    const opened = openVerified(SQL, snap.bytes, journal?.base !== fingerprint);
    if ('conn' in opened) return { conn: opened.conn, stamp: snap.stamp, warnings: [], needsWrite: false, fingerprint, journal };
    problem = opened.problem;
  }
  const movedTo = snap ? moveAside(file, now, fsx, root) : undefined;
  const where = movedTo ? ` It was moved to ${movedTo}.` : snap ? ' It could not be moved aside.' : '';
  const backup = readBackup(fsx, SQL, file);
  if (backup) {
    return {
      conn: backup,
      stamp: undefined,
      needsWrite: true,
      ...none,
      warnings: [
        {
          kind: 'recovered-from-backup',
          message: `History database ${file}: ${problem}.${where} Restored the previous copy (${backupPath(file)}); the most recent changes may be missing.`,
          ...(movedTo ? { movedTo } : {}),
        },
      ],
    };
  }
  return {
    conn: new SqlConn(new SQL.Database()),
    stamp: undefined,
    needsWrite: true,
    ...none,
    warnings: [
      {
        kind: 'recovered-fresh',
        message: `History database ${file}: ${problem}.${where} No usable backup; started a new, empty history.`,
        ...(movedTo ? { movedTo } : {}),
      },
    ],
  };
}

function readBackup(fsx: FsLayer, SQL: SqlJsStatic, file: string): SqlConn | undefined {
  try {
    const snap = readSnapshot(fsx, backupPath(file));
    if (!snap) return undefined;
    const opened = openVerified(SQL, snap.bytes);
    return 'conn' in opened ? opened.conn : undefined;
  } catch {
    return undefined;
  }
}
