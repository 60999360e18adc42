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
import { fingerprintOf, fingerprintOfFile, journalPath, parseJournal, type JournalRead } from './journal';
import { openPagedFile, pagingAvailable } from './diskPages';

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
  const problem = headerProblem(bytes.length, bytes.subarray(0, 16));
  if (problem) return { problem };
  let conn: SqlConn | undefined;
  try {
    conn = new SqlConn(new SQL.Database(bytes));
    if (check) quickCheck(conn);
    return { conn };
  } catch (err) {
    conn?.close();
    return { problem: `the database is damaged (${errorMessage(err)})` };
  }
}

/**
 * Files under this size are read whole, as before paging: memory stays within the +50 MB budget,
 * and their data survives another program overwriting the file in place (a paged file reads what
 * is on disk now; our own saves always write a new file and rename it).
 */
export const PAGED_FROM_BYTES = 32 << 20;

export interface OpenHow {
  /** The fingerprint the journal continues: a file with it needs no quick_check. */
  journalBase: string | undefined;
  /** The file this process has just written under the lock: no quick_check. */
  trusted?: boolean;
  /** Read a page at a time from this size on (default PAGED_FROM_BYTES). */
  pagedFromBytes?: number;
}

function currentSize(fsx: FsLayer, file: string): number | undefined {
  try {
    return fsx.statSync(file).size;
  } catch {
    return undefined; // the open below says why
  }
}

/** The database file opened as a connection, with the identity and fingerprint of the version it reads. */
export type OpenedFile = { conn: SqlConn; stamp: string; fingerprint: string } | { problem: string };

/**
 * Opens the file for queries: a page at a time from disk where the sql.js build allows it
 * (diskPages.ts; memory stays SQLite's page cache), else read whole. quick_check runs unless the
 * journal continues exactly this file or it is trusted (OpenHow). Undefined: no file.
 */
export function openFile(fsx: FsLayer, SQL: SqlJsStatic, file: string, how: OpenHow): OpenedFile | undefined {
  const { journalBase, trusted = false, pagedFromBytes = PAGED_FROM_BYTES } = how;
  if (!pagingAvailable() || (currentSize(fsx, file) ?? 0) < pagedFromBytes) {
    const snap = readSnapshot(fsx, file);
    if (!snap) return undefined;
    const fingerprint = fingerprintOf(snap.bytes);
    const opened = openVerified(SQL, snap.bytes, !trusted && journalBase !== fingerprint);
    return 'conn' in opened ? { conn: opened.conn, stamp: snap.stamp, fingerprint } : opened;
  }
  let paged: ReturnType<typeof openPagedFile>;
  try {
    paged = openPagedFile(fsx, file);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  const size = Number(paged.stat.size);
  const fingerprint = fingerprintOfFile(size, (pos, length) => paged.readDisk(pos, length));
  const problem = headerProblem(size, paged.readDisk(0, 16));
  if (problem) {
    paged.release();
    return { problem };
  }
  let conn: SqlConn | undefined;
  try {
    conn = paged.bind(() => new SqlConn(new SQL.Database(), paged));
    if (!trusted && journalBase !== fingerprint) quickCheck(conn);
    return { conn, stamp: stampOf(paged.stat), fingerprint };
  } catch (err) {
    if (conn) conn.close();
    else paged.release();
    return { problem: `the database is damaged (${errorMessage(err)})` };
  }
}

function headerProblem(size: number, head: Uint8Array): string | undefined {
  if (size === 0) return 'the file is empty (zero bytes)';
  if (size < 100 || Buffer.from(head).toString('latin1') !== SQLITE_HEADER) return 'the file is not a SQLite database';
  return undefined;
}

function quickCheck(conn: SqlConn): void {
  const verdict = conn
    .all<{ quick_check: string }>('PRAGMA quick_check')
    .map((r) => r.quick_check)
    .join('; ');
  if (verdict !== 'ok') throw new Error(verdict);
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
export function loadUnderLock(fsx: FsLayer, SQL: SqlJsStatic, file: string, now: number, lock: FileLock, root: string, pagedFromBytes?: number): LoadResult {
  const load = () => loadWithRecovery(fsx, SQL, file, now, root, pagedFromBytes);
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
export function loadWithRecovery(fsx: FsLayer, SQL: SqlJsStatic, file: string, now: number, root?: string, pagedFromBytes?: number): LoadResult {
  const journal = readJournal(fsx, file);
  const none = { fingerprint: undefined, journal };
  let opened: OpenedFile | undefined;
  let unreadable = false;
  try {
    opened = openFile(fsx, SQL, file, { journalBase: journal?.base, pagedFromBytes });
  } catch (err) {
    unreadable = true;
    opened = { problem: `cannot read it (${errorMessage(err)})` };
  }
  if (!opened) return { conn: new SqlConn(new SQL.Database()), stamp: undefined, warnings: [], needsWrite: false, ...none };
  if ('conn' in opened) return { conn: opened.conn, stamp: opened.stamp, warnings: [], needsWrite: false, fingerprint: opened.fingerprint, journal };
  const problem = opened.problem;
  const movedTo = unreadable ? undefined : moveAside(file, now, fsx, root);
  const where = movedTo ? ` It was moved to ${movedTo}.` : unreadable ? '' : ' It could not be moved aside.';
  const backup = readBackup(fsx, SQL, file, pagedFromBytes);
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

function readBackup(fsx: FsLayer, SQL: SqlJsStatic, file: string, pagedFromBytes?: number): SqlConn | undefined {
  try {
    const opened = openFile(fsx, SQL, backupPath(file), { journalBase: undefined, pagedFromBytes });
    return opened && 'conn' in opened ? opened.conn : undefined;
  } catch {
    return undefined;
  }
}
