/**
 * The history's append-only journal, `history.db.journal`, next to the database file. sql.js can
 * only write whole files, so instead of rewriting a 100 MB file after every run, each save appends
 * the pending ops (ops.ts) as one checksummed line; the journal is folded into the file (one export
 * and rename) only when it has grown past a threshold (durableDb.ts).
 *
 * Format: a header line `PPJ1 <fingerprint>` naming the database file the journal continues, then
 * one line per save: `<sha1 of the JSON, 16 hex> <JSON array of ops>`. JSON escapes newlines, so a
 * record is exactly one line. A record whose line is incomplete or whose checksum does not match
 * (the writer was killed mid-append) ends the journal: it and everything after it are dropped.
 *
 * The fingerprint (size + a hash of the file's first and last 64 KiB) ties the journal to one
 * version of the database: each fold stamps a fresh random `application_id` into the header page,
 * so two folds never share a fingerprint. A file whose fingerprint matches its journal's header is
 * exactly what a fold wrote, so opening it needs no `PRAGMA quick_check`; a mismatch (a journal
 * already folded when the folder was killed in between, a file replaced from outside) is the reason
 * to check, and the journal is then not replayed on top of a file it does not continue.
 */
import { createHash } from 'node:crypto';
import { applyOp, type Op } from './ops';
import type { SqlConn } from './sqlConn';

const MAGIC = 'PPJ1';
const EDGE = 64 * 1024;
const NEWLINE = 0x0a;

export function journalPath(dbPath: string): string {
  return `${dbPath}.journal`;
}

/** Identity of one database file version: cheap (128 KiB hashed), changes with every fold. */
export function fingerprintOf(bytes: Uint8Array): string {
  return fingerprintOfFile(bytes.length, (pos, length) => bytes.subarray(pos, pos + length));
}

/** The same fingerprint read from a file on disk: only its first and last 64 KiB. */
export function fingerprintOfFile(length: number, readAt: (pos: number, length: number) => Uint8Array): string {
  const hash = createHash('sha1').update(readAt(0, Math.min(EDGE, length)));
  if (length > EDGE) {
    const from = Math.max(EDGE, length - EDGE);
    hash.update(readAt(from, length - from));
  }
  return `${length}-${hash.digest('hex').slice(0, 20)}`;
}

export function journalHeader(fingerprint: string): string {
  return `${MAGIC} ${fingerprint}\n`;
}

export function journalRecord(ops: readonly Op[]): string {
  const json = JSON.stringify(ops);
  return `${checksum(json)} ${json}\n`;
}

function checksum(json: string): string {
  return createHash('sha1').update(json).digest('hex').slice(0, 16);
}

export interface JournalRead {
  /** The database fingerprint in the header; undefined when the header itself is missing or torn. */
  base: string | undefined;
  /** Complete, intact records in order, each one save's ops. */
  records: Op[][];
  /** Byte offset just after the last intact record: where the next append belongs. */
  validBytes: number;
  /** Bytes after validBytes that are not an intact record (a torn or damaged tail). */
  tornBytes: number;
}

/** Parses the whole journal. */
export function parseJournal(bytes: Buffer): JournalRead {
  const headerEnd = bytes.indexOf(NEWLINE);
  const header = headerEnd < 0 ? '' : bytes.subarray(0, headerEnd).toString('utf8');
  if (!header.startsWith(`${MAGIC} `)) return { base: undefined, records: [], validBytes: 0, tornBytes: bytes.length };
  const rest = parseRecords(bytes, headerEnd + 1);
  return { base: header.slice(MAGIC.length + 1), ...rest };
}

/** Parses records from `from` (a record boundary) to the end of `bytes`. */
export function parseRecords(bytes: Buffer, from: number): Omit<JournalRead, 'base'> {
  const records: Op[][] = [];
  let at = from;
  while (at < bytes.length) {
    const end = bytes.indexOf(NEWLINE, at);
    if (end < 0) break;
    const ops = decodeRecord(bytes.subarray(at, end).toString('utf8'));
    if (!ops) break;
    records.push(ops);
    at = end + 1;
  }
  return { records, validBytes: at, tornBytes: bytes.length - at };
}

function decodeRecord(line: string): Op[] | undefined {
  const space = line.indexOf(' ');
  if (space !== 16) return undefined;
  const json = line.slice(17);
  if (checksum(json) !== line.slice(0, 16)) return undefined;
  try {
    const ops: unknown = JSON.parse(json);
    return Array.isArray(ops) ? (ops as Op[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Replays journal records; ops are idempotent, and one that fails (a row of a newer schema) is skipped alone. */
export function replayRecords(conn: SqlConn, records: readonly Op[][]): void {
  if (records.length === 0) return;
  conn.transaction(() => {
    for (const ops of records) {
      for (const op of ops) {
        try {
          applyOp(conn, op);
        } catch {
          // skipped: the rest of the journal still applies
        }
      }
    }
  });
}
