/**
 * Versioned migrations, tracked in `PRAGMA user_version`. Append only: a released migration never
 * changes, so a database written by any older PatchPilot upgrades step by step.
 *
 * Row ids are random text ids (UUIDs) so that rows written by two processes can be merged into
 * one file without colliding (see engine.ts). Observations also carry a local integer key `n`,
 * only because FTS4 indexes rows by integer docid; it never leaves the file.
 */
import type { SqlConn } from './sqlConn';
import { USAGE_MIGRATION_SQL } from './usage';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'runs, steps, patches, test runs',
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY, goal TEXT NOT NULL, reasoning_model TEXT, fast_model TEXT,
        status TEXT NOT NULL, started_at INTEGER NOT NULL, ended_at INTEGER,
        tokens_in INTEGER NOT NULL DEFAULT 0, tokens_out INTEGER NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0
      );
      CREATE INDEX runs_started ON runs(started_at);
      CREATE TABLE steps (
        id TEXT PRIMARY KEY, run_id TEXT NOT NULL, seq INTEGER NOT NULL, role TEXT NOT NULL,
        text TEXT, tool TEXT, arguments TEXT, result TEXT, duration_ms INTEGER, time INTEGER NOT NULL
      );
      CREATE INDEX steps_run ON steps(run_id, seq);
      CREATE TABLE patches (
        id TEXT PRIMARY KEY, run_id TEXT NOT NULL, text TEXT NOT NULL, files TEXT NOT NULL,
        accepted_hunks TEXT NOT NULL, rejected_hunks TEXT NOT NULL, reverse_patch TEXT,
        applied_at INTEGER, time INTEGER NOT NULL
      );
      CREATE INDEX patches_run ON patches(run_id);
      CREATE TABLE test_runs (
        id TEXT PRIMARY KEY, run_id TEXT, command TEXT NOT NULL,
        trigger TEXT NOT NULL CHECK (trigger IN ('agent', 'save', 'manual')),
        exit_code INTEGER, duration_ms INTEGER NOT NULL, output_tail TEXT NOT NULL, time INTEGER NOT NULL
      );
      CREATE INDEX test_runs_run ON test_runs(run_id);
    `,
  },
  {
    version: 2,
    description: 'observations and Q&A summaries with an FTS4 index',
    // FTS5 is not compiled into the sql.js npm build (checked: "no such module: fts5"); FTS4 is.
    // External content (content="observations") keeps the text once in the file; triggers keep the
    // index in step with the table.
    sql: `
      CREATE TABLE observations (
        n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL CHECK (type IN ('qa', 'observation')),
        run_id TEXT, tool TEXT, text TEXT NOT NULL, detail TEXT NOT NULL, path TEXT, time INTEGER NOT NULL
      );
      CREATE INDEX observations_time ON observations(time);
      CREATE INDEX observations_run ON observations(run_id);
      CREATE VIRTUAL TABLE observations_fts USING fts4(content="observations", text, detail, path, tokenize=unicode61);
      CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN
        INSERT INTO observations_fts(docid, text, detail, path) VALUES (new.n, new.text, new.detail, new.path);
      END;
      CREATE TRIGGER observations_bd BEFORE DELETE ON observations BEGIN
        DELETE FROM observations_fts WHERE docid = old.n;
      END;
    `,
  },
  {
    version: 3,
    description: 'policy decisions and memory facts',
    sql: `
      CREATE TABLE policy_decisions (
        id TEXT PRIMARY KEY, run_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('command', 'path', 'network')),
        subject TEXT NOT NULL, verdict TEXT NOT NULL CHECK (verdict IN ('allow', 'ask', 'deny')),
        rule TEXT, reason TEXT NOT NULL, time INTEGER NOT NULL
      );
      CREATE INDEX policy_decisions_run ON policy_decisions(run_id);
      CREATE TABLE memory_facts (
        scope TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL, time INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );
    `,
  },
  {
    version: 4,
    description: 'runs.parent_run_id: a subagent run points at the run that spawned it',
    sql: `
      ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
      CREATE INDEX runs_parent ON runs(parent_run_id);
    `,
  },
  {
    version: 5,
    description: 'full-text indexes over runs, steps, patches, test runs and policy decisions; recorded file snapshots of patches',
    // The history panel searches everything, not only observations. External content again: the
    // text stays once in the file, indexed by each table's rowid. These tables have no INTEGER
    // PRIMARY KEY, so their rowids are stable only while nobody runs VACUUM on the file (nothing
    // does: sql.js exports the pages as they are). 'rebuild' indexes the rows that exist already.
    // snapshots: the files before and after the patch as recorded by the run (JSON, capped), for the
    // panel's read-only diff; null for older rows and for files over the cap.
    sql: `
      ALTER TABLE patches ADD COLUMN snapshots TEXT;
      CREATE INDEX steps_time ON steps(time);
      CREATE INDEX patches_time ON patches(time);
      CREATE INDEX test_runs_time ON test_runs(time);
      CREATE INDEX policy_decisions_time ON policy_decisions(time);
      ${ftsOver('runs', ['goal'])}
      ${ftsOver('steps', ['text', 'tool', 'arguments', 'result'])}
      ${ftsOver('patches', ['files', 'text', 'rejected_hunks'])}
      ${ftsOver('test_runs', ['command', 'output_tail'])}
      ${ftsOver('policy_decisions', ['subject', 'rule', 'reason'])}
    `,
  },
  {
    version: 6,
    description: 'one status vocabulary with the CLI, model steps, the process that runs a run, hunk ids from 1',
    // `succeeded` becomes `finished` (the word the CLI and the chat use); model_steps is the step count
    // they show (older runs: one per assistant row); the owner columns let an open mark a run whose
    // process died as interrupted. Hunk ids count from 1 now, as every message does ("a.ts#1" is
    // hunk #1): the ids older patches recorded (from 0) are renumbered so a panel reads them right.
    sql: `
      ALTER TABLE runs ADD COLUMN model_steps INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN owner_host TEXT;
      ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
      ALTER TABLE runs ADD COLUMN owner_start TEXT;
      UPDATE runs SET status = 'finished' WHERE status = 'succeeded';
      UPDATE runs SET model_steps = (SELECT count(*) FROM steps s WHERE s.run_id = runs.id AND s.role = 'assistant');
      CREATE INDEX runs_status ON runs(status);
      UPDATE patches SET accepted_hunks = ${renumberHunkIds('accepted_hunks')} WHERE json_valid(accepted_hunks);
      UPDATE patches SET rejected_hunks = ${renumberHunkIds('rejected_hunks')} WHERE json_valid(rejected_hunks);
    `,
  },
  {
    version: 7,
    description: 'model_usage: every model request with its source (main, fast, compaction, subagent N), tokens and cost',
    // The per-run and per-day usage views and the daily budget read it (usage.ts); older runs have
    // only their totals in runs.tokens_in/out and cost_usd.
    sql: USAGE_MIGRATION_SQL,
  },
];

/** An external-content FTS4 index over `table`'s `columns`, kept in step by triggers, filled from the rows already there. */
function ftsOver(table: string, columns: readonly string[]): string {
  const cols = columns.join(', ');
  const values = columns.map((c) => `new.${c}`).join(', ');
  return `
      CREATE VIRTUAL TABLE ${table}_fts USING fts4(content="${table}", ${cols}, tokenize=unicode61);
      INSERT INTO ${table}_fts(${table}_fts) VALUES('rebuild');
      CREATE TRIGGER ${table}_fts_ai AFTER INSERT ON ${table} BEGIN
        INSERT INTO ${table}_fts(docid, ${cols}) VALUES (new.rowid, ${values});
      END;
      CREATE TRIGGER ${table}_fts_bd BEFORE DELETE ON ${table} BEGIN
        DELETE FROM ${table}_fts WHERE docid = old.rowid;
      END;`;
}

/** `path#N` -> `path#N+1` (anything else as it is); SQLite has no last-index-of, so rtrim finds the number. */
function nextHunkId(v: string): string {
  const prefix = `rtrim(${v}, '0123456789')`;
  return `CASE WHEN ${v} GLOB '*#[0-9]*' AND ${prefix} GLOB '*#' THEN ${prefix} || (CAST(substr(${v}, length(${prefix}) + 1) AS INTEGER) + 1) ELSE ${v} END`;
}

/** A JSON array of hunk ids, or of notes `{id, state, reason}`, with every id renumbered (JSON1 is built into sql.js). */
function renumberHunkIds(column: string): string {
  return `(SELECT json_group_array(CASE
      WHEN type = 'text' THEN ${nextHunkId('value')}
      WHEN type = 'object' AND json_type(value, '$.id') = 'text' THEN json_set(value, '$.id', ${nextHunkId("json_extract(value, '$.id')")})
      WHEN type IN ('object', 'array') THEN json(value)
      ELSE json(json_quote(value)) END) FROM json_each(patches.${column}))`;
}

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function schemaVersion(conn: SqlConn): number {
  return Number(conn.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0);
}

/** Applies every migration above the file's version, each in its own transaction. Returns the versions applied. */
export function migrate(conn: SqlConn, upTo: number = SCHEMA_VERSION): number[] {
  const applied: number[] = [];
  const current = schemaVersion(conn);
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > upTo) continue;
    conn.transaction(() => {
      conn.exec(m.sql);
      conn.exec(`PRAGMA user_version = ${m.version}`);
    });
    applied.push(m.version);
  }
  return applied;
}
