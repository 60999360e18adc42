/**
 * The journal file on disk as one store process knows it (format: journal.ts): which database
 * version it continues, how many of its bytes this process has applied, and whether it ends in a
 * torn line. Writes go through the confined writer (fs/confinedWrite.ts), never through a link.
 */
import type { FsLayer } from '../fs/fsLayer';
import { appendFileConfined, writeFileConfined } from '../fs/confinedWrite';
import { journalHeader, journalPath, parseJournal, parseRecords, type JournalRead } from './journal';
import type { Op } from './ops';

export class JournalFile {
  /** Fingerprint of the database version the journal on disk continues, as last read or written. */
  private base: string | undefined;
  /** Bytes of the journal applied so far: where the next append lands. */
  private bytes = 0;
  /** The journal ends in a torn or damaged line, found with the lock held: the next save folds it away. */
  torn = false;

  constructor(
    dbPath: string,
    private readonly root: string,
    private readonly fsx: FsLayer,
  ) {
    this.path = journalPath(dbPath);
  }

  readonly path: string;

  get size(): number {
    return this.bytes;
  }

  continues(fingerprint: string | undefined): boolean {
    return fingerprint !== undefined && this.base === fingerprint && this.bytes > 0;
  }

  /**
   * Takes a journal read from disk. Returns the records to replay onto the database version
   * `fingerprint` (none when the journal continues another version) and the size of a torn tail
   * newly found with the lock held (without the lock, a short last line may still be being written).
   */
  adopt(journal: JournalRead | undefined, fingerprint: string | undefined, locked: boolean): { records: Op[][]; tornBytes: number } {
    this.base = journal?.base;
    this.bytes = journal?.validBytes ?? 0;
    if (!journal || journal.base === undefined || journal.base !== fingerprint) return { records: [], tornBytes: 0 };
    const newlyTorn = locked && journal.tornBytes > 0 && !this.torn;
    if (locked && journal.tornBytes > 0) this.torn = true;
    return { records: journal.records, tornBytes: newlyTorn ? journal.tornBytes : 0 };
  }

  /** What others appended since we last read (a journal started anew is read whole: its ops are idempotent). Undefined when nothing changed. */
  readNew(fingerprint: string | undefined): JournalRead | undefined {
    let size: number;
    try {
      size = this.fsx.statSync(this.path).size;
    } catch {
      this.base = undefined;
      this.bytes = 0;
      return undefined;
    }
    if (size === this.bytes) return undefined;
    let data: Buffer;
    try {
      data = this.fsx.readFileSync(this.path);
    } catch {
      return undefined;
    }
    if (this.continues(fingerprint) && data.length >= this.bytes) return { base: this.base, ...parseRecords(data, this.bytes) };
    return parseJournal(data);
  }

  /** Appends one save's ops, starting a new journal when the one on disk continues another database version. */
  append(record: string, fingerprint: string): void {
    if (this.continues(fingerprint)) {
      appendFileConfined(this.root, this.path, record, { durable: true });
      this.bytes += Buffer.byteLength(record);
    } else {
      this.restart(fingerprint, record);
    }
  }

  /** Replaces the journal with one that continues `fingerprint` (atomically: a reader sees the old or the new one). */
  restart(fingerprint: string, record = ''): void {
    const text = journalHeader(fingerprint) + record;
    writeFileConfined(this.root, this.path, text);
    this.base = fingerprint;
    this.bytes = Buffer.byteLength(text);
    this.torn = false;
  }
}

/**
 * A file opened without a journal that continues it (written by an older PatchPilot, or its
 * journal lost) has just passed quick_check: a header-only journal records that, so the next open
 * need not check it again. Call with the lock held; best effort (a read-only folder is fine).
 */
export function startJournalIfNone(root: string, dbPath: string, fingerprint: string | undefined, journal: JournalRead | undefined): JournalRead | undefined {
  if (fingerprint === undefined || journal?.base === fingerprint) return journal;
  const header = journalHeader(fingerprint);
  try {
    writeFileConfined(root, journalPath(dbPath), header);
  } catch {
    return journal;
  }
  return parseJournal(Buffer.from(header));
}
