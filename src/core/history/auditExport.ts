/**
 * The audit format, written in one place for the CLI (`patchpilot history export`, the whole
 * database) and the history panel (one run): a JSON document
 * `{"exportedAt": ISO time, "tables": {"runs": [...], "steps": [...], ...}}` with the tables in
 * HISTORY_TABLES order and each table's rows oldest first, or JSON Lines of `{table, row}`.
 * Written piece by piece, so a big database never sits in one string.
 */
import type { AuditRecord, RunDetail } from './types';

export type AuditFormat = 'json' | 'jsonl';

export async function writeAudit(
  records: AsyncIterable<AuditRecord> | Iterable<AuditRecord>,
  format: AuditFormat,
  write: (chunk: string) => Promise<void>,
  exportedAt: Date = new Date(),
): Promise<void> {
  if (format === 'jsonl') {
    for await (const rec of records) await write(JSON.stringify(rec) + '\n');
    return;
  }
  await write(`{"exportedAt":${JSON.stringify(exportedAt.toISOString())},"tables":{`);
  let table: AuditRecord['table'] | undefined;
  let first = true;
  for await (const rec of records) {
    if (rec.table !== table) {
      await write(`${table ? '],' : ''}${JSON.stringify(rec.table)}:[`);
      table = rec.table;
      first = true;
    }
    await write(`${first ? '' : ','}\n${JSON.stringify(rec.row)}`);
    first = false;
  }
  await write(`${table ? ']' : ''}}}\n`);
}

/** One run as audit records, in the table order of the whole-database export. */
export function runAuditRecords(d: RunDetail): AuditRecord[] {
  return [
    { table: 'runs', row: d.run },
    ...d.steps.map((row) => ({ table: 'steps' as const, row })),
    ...d.patches.map((row) => ({ table: 'patches' as const, row })),
    ...d.testRuns.map((row) => ({ table: 'test_runs' as const, row })),
    ...d.observations.map((row) => ({ table: 'observations' as const, row })),
    ...d.policyDecisions.map((row) => ({ table: 'policy_decisions' as const, row })),
  ];
}

/** The audit JSON of one run as a string (a run is small enough). */
export async function runAuditJson(d: RunDetail, exportedAt?: Date): Promise<string> {
  let out = '';
  await writeAudit(runAuditRecords(d), 'json', async (s) => void (out += s), exportedAt);
  return out;
}
