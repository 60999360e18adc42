/**
 * A thin, typed wrapper over one sql.js Database: cached prepared statements (100k inserts would
 * otherwise re-prepare each time), row objects, transactions. sql.js 1.16's export() uses SQLite's
 * backup API and keeps the connection (statements, functions) intact, so the cache survives saves.
 */
import type { BindParams, Database, SqlValue, Statement } from 'sql.js';
import { registerBm25 } from './bm25';
import type { PagedFile } from './diskPages';

export type Row = Record<string, SqlValue>;

export class SqlConn {
  private readonly statements = new Map<string, Statement>();
  private depth = 0;

  /** `paged`: the file the database reads a page at a time (diskPages.ts), released at close. */
  constructor(
    readonly db: Database,
    private readonly paged?: PagedFile,
  ) {
    // Journal in memory: the file lives in Emscripten's MEMFS or, paged, its writes stay in memory
    // anyway; durability comes from our journal and atomic whole-file save, not from SQLite's journal.
    db.exec('PRAGMA journal_mode = MEMORY; PRAGMA temp_store = MEMORY');
    registerBm25(db);
  }

  private prepare(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  run(sql: string, params: BindParams = []): number {
    const stmt = this.prepare(sql);
    try {
      stmt.run(params);
    } finally {
      stmt.reset();
    }
    return this.db.getRowsModified();
  }

  all<T extends object = Row>(sql: string, params: BindParams = []): T[] {
    const stmt = this.prepare(sql);
    const rows: T[] = [];
    try {
      stmt.bind(params);
      while (stmt.step()) rows.push(stmt.getAsObject() as T);
    } finally {
      stmt.reset();
    }
    return rows;
  }

  get<T extends object = Row>(sql: string, params: BindParams = []): T | undefined {
    const stmt = this.prepare(sql);
    try {
      stmt.bind(params);
      return stmt.step() ? (stmt.getAsObject() as T) : undefined;
    } finally {
      stmt.reset();
    }
  }

  /** Runs SQL text with several statements and no parameters (migrations, pragmas). */
  exec(sql: string): void {
    this.db.exec(sql);
  }

  /**
   * Groups many small writes into one transaction (committed by endBatch): an FTS4 insert per
   * autocommit costs a segment write each time, so a burst of writes is ~10x faster batched.
   * A failing statement inside the batch is rolled back alone (SQLite's statement-level abort).
   */
  beginBatch(): void {
    if (this.depth > 0) return;
    this.db.exec('BEGIN');
    this.depth++;
  }

  endBatch(): void {
    if (this.depth !== 1) return;
    this.depth--;
    this.db.exec('COMMIT');
  }

  get inBatch(): boolean {
    return this.depth > 0;
  }

  /** Nested calls join the outer transaction (savepoints would be needed only for partial rollback). */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.db.exec('BEGIN');
    this.depth++;
    try {
      const value = fn();
      this.depth--;
      this.db.exec('COMMIT');
      return value;
    } catch (err) {
      this.depth--;
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // SQLite already rolled back (e.g. after a constraint error): nothing more to undo.
      }
      throw err;
    }
  }

  export(): Uint8Array {
    return this.db.export();
  }

  /** The whole database as a file's contents: in parts from a paged file (never all in memory), else exported at once. */
  contents(): Uint8Array | Iterable<Uint8Array> {
    return this.paged ? this.paged.contents() : this.db.export();
  }

  close(): void {
    for (const stmt of this.statements.values()) stmt.free();
    this.statements.clear();
    try {
      this.db.close();
    } finally {
      this.paged?.release();
    }
  }
}
