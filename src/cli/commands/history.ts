import path from 'node:path';
import { stat } from 'node:fs/promises';
import { ExitCode, UsageError, parseCommandLine, type CliOptionSpec } from '../io';
import { UserError, errorMessage } from '../../core/base';
import { loadCliConfig } from '../../core/config';
import { openHistoryStore, RUN_STATUSES, type HistoryStore, type RunDetail, type RunStatus, type SearchHit, type UsageTotalsView } from '../../core/history';
import { writeAudit } from '../../core/history';
import type { Notifier } from '../../core/ports';
import { findRun } from '../../core/session';
import { usageDaysText, usageTable } from '../node/usageText';

const stderrNotifier: Notifier = {
  info: (m) => process.stderr.write(`patchpilot history: ${m}\n`),
  warn: (m) => process.stderr.write(`patchpilot history: warning: ${m}\n`),
  error: (m) => process.stderr.write(`patchpilot history: error: ${m}\n`),
};

const COMMON = { cwd: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } } as const;
const SUBCOMMANDS = {
  list: { options: { ...COMMON, limit: { type: 'string' }, status: { type: 'string' } }, handler: (s: HistoryStore, a: Args) => listCommand(s, a) },
  show: { options: COMMON, handler: (s: HistoryStore, a: Args) => showCommand(s, a) },
  usage: { options: { ...COMMON, days: { type: 'string' } }, handler: (s: HistoryStore, a: Args) => usageCommand(s, a) },
  search: { options: { ...COMMON, days: { type: 'string' }, limit: { type: 'string' } }, handler: (s: HistoryStore, a: Args) => searchCommand(s, a) },
  export: { options: { ...COMMON, format: { type: 'string' } }, handler: (s: HistoryStore, a: Args) => exportCommand(s, a) },
} as const;

/** Every subcommand's parsed line: the options it declared (others were refused by the strict parser). */
interface Args {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub) throw new UsageError('missing subcommand (list, show, usage, search or export)');
  if (!Object.hasOwn(SUBCOMMANDS, sub)) throw new UsageError(`unknown subcommand '${sub}'`);
  const { options, handler } = SUBCOMMANDS[sub as keyof typeof SUBCOMMANDS];
  return withStore(parseCommandLine(rest, options as CliOptionSpec) as Args, handler);
}

async function withStore(args: Args, handler: (store: HistoryStore, args: Args) => Promise<number>): Promise<number> {
  const cwd = path.resolve(str(args, 'cwd') ?? process.cwd());
  const st = await stat(cwd).catch(() => undefined);
  if (!st?.isDirectory()) throw new UsageError(`--cwd ${cwd} is not a folder`);
  // Checked before opening: a wrong word must not cost a database open (and its repairs).
  const status = str(args, 'status');
  if (status !== undefined && !(RUN_STATUSES as readonly string[]).includes(status)) {
    throw new UsageError(`--status must be one of ${RUN_STATUSES.join(', ')} (got '${status}')`);
  }
  const db = str(args, 'db');
  let store: HistoryStore;
  try {
    // Same database as `patchpilot run`: the patchpilot.history.path setting (confined to the workspace).
    const configured = db ? undefined : loadCliConfig({ workspace: cwd, env: process.env, flags: {}, trusted: false }).settings.history.path;
    store = await openHistoryStore({
      workspace: cwd,
      ...(db ? { path: path.resolve(db), allowOutsideWorkspace: true } : { path: configured }),
      notifier: stderrNotifier,
    });
  } catch (err) {
    process.stderr.write(`patchpilot history: cannot open the history database: ${errorMessage(err)}\n`);
    return ExitCode.failed;
  }
  let code: number;
  try {
    code = await handler(store, args);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    process.stderr.write(`patchpilot history: ${err.message}\n`);
    code = ExitCode.failed;
  } finally {
    // Saves what opening repaired (a database restored from its backup, runs whose process is gone
    // marked interrupted); rejects if the folder is not writable.
    await store.close().catch((err: unknown) => {
      process.stderr.write(`patchpilot history: ${errorMessage(err)}\n`);
      code = ExitCode.failed;
    });
  }
  return code!;
}

const str = (args: Args, name: string): string | undefined => {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
};

function positiveInt(args: Args, name: string): number | undefined {
  const raw = str(args, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number >= 0 (got '${raw}')`);
  return n;
}

const isJson = (args: Args) => args.values.json === true;
const iso = (t: number | null) => (t === null ? '-' : new Date(t).toISOString().replace('T', ' ').slice(0, 19));
const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

async function listCommand(store: HistoryStore, args: Args): Promise<number> {
  if (args.positionals.length) throw new UsageError('list takes no arguments');
  const status = str(args, 'status') as RunStatus | undefined;
  const limit = positiveInt(args, 'limit');
  const runs = await store.listRuns({ ...(limit ? { limit } : {}), ...(status ? { status } : {}) });
  if (isJson(args)) {
    process.stdout.write(JSON.stringify(runs, null, 2) + '\n');
    return ExitCode.ok;
  }
  if (runs.length === 0) {
    process.stdout.write(status ? `no ${status} runs recorded\n` : 'no runs recorded\n');
    return ExitCode.ok;
  }
  for (const r of runs) {
    const parent = r.parentRunId ? `  (subagent of ${r.parentRunId.slice(0, 8)})` : '';
    process.stdout.write(`${r.id}  ${r.status.padEnd(11)} ${iso(r.startedAt)}  ${String(r.steps).padStart(4)} steps  ${oneLine(r.goal, 70)}${parent}\n`);
  }
  return ExitCode.ok;
}

async function showCommand(store: HistoryStore, args: Args): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError('show needs exactly one RUN_ID');
  const wanted = args.positionals[0]!;
  // An id, a unique prefix (as with git hashes), or "last".
  const detail = (await store.getRun(wanted)) ?? (await store.getRun((await findRun(store, wanted)).id));
  if (!detail) throw new UserError(`no run with id ${wanted}`);
  const usage = await store.runUsage(detail.run.id);
  if (isJson(args)) process.stdout.write(JSON.stringify({ ...detail, usage }, null, 2) + '\n');
  else process.stdout.write(renderRun(detail, usage));
  return ExitCode.ok;
}

async function usageCommand(store: HistoryStore, args: Args): Promise<number> {
  if (args.positionals.length) throw new UsageError('usage takes no arguments');
  const days = await store.usageByDay(positiveInt(args, 'days') || 7);
  if (isJson(args)) process.stdout.write(JSON.stringify(days, null, 2) + '\n');
  else process.stdout.write(usageDaysText(days));
  return ExitCode.ok;
}

function renderRun(d: RunDetail, usage: readonly UsageTotalsView[]): string {
  const r = d.run;
  const out = [
    `run ${r.id}`,
    `goal:    ${r.goal}`,
    ...(r.parentRunId ? [`parent:  ${r.parentRunId} (a subagent's run)`] : []),
    `status:  ${r.status} after ${r.steps} step${r.steps === 1 ? '' : 's'}   started ${iso(r.startedAt)}   ended ${iso(r.endedAt)}`,
    `models:  ${r.reasoningModel ?? '-'} / ${r.fastModel ?? '-'}   tokens ${r.tokensIn} in, ${r.tokensOut} out   cost $${r.costUsd.toFixed(4)}`,
    `usage by source (every model request, subagents' included):`,
    ...usageTable(usage),
    '',
    `log (${d.steps.length} entries: the goal, each model reply and each tool call):`,
    ...d.steps.map((s) => `  ${String(s.seq).padStart(3)}. ${s.role}${s.tool ? ` ${s.tool}` : ''}: ${oneLine(s.text ?? s.result ?? '', 100)}`),
    `patches (${d.patches.length}):`,
    ...d.patches.map(
      (p) =>
        `  ${p.id}  ${p.files.join(', ')}  accepted ${p.acceptedHunks.length}, rejected ${p.rejectedHunks.length}${p.appliedAt ? `, applied ${iso(p.appliedAt)}` : ''}`,
    ),
    `test runs (${d.testRuns.length}):`,
    ...d.testRuns.map((t) => `  ${iso(t.time)}  ${t.trigger.padEnd(6)} exit ${t.exitCode ?? '-'}  ${t.durationMs} ms  ${t.command}`),
    `policy decisions (${d.policyDecisions.length}):`,
    ...d.policyDecisions.map((p) => `  ${p.verdict.padEnd(5)} ${p.kind} ${oneLine(p.subject, 60)}  (${p.rule ?? '-'}: ${oneLine(p.reason, 60)})`),
    `observations (${d.observations.length}):`,
    ...d.observations.map((o) => `  [${o.type}] ${o.tool ?? ''} ${oneLine(o.text, 100)}`),
  ];
  return out.join('\n') + '\n';
}

async function searchCommand(store: HistoryStore, args: Args): Promise<number> {
  if (args.positionals.length === 0) throw new UsageError('search needs a QUERY');
  const query = args.positionals.join(' ');
  const days = positiveInt(args, 'days');
  const limit = positiveInt(args, 'limit');
  const hits = await store.search(query, { ...(days !== undefined ? { days } : {}), ...(limit ? { limit } : {}) });
  if (isJson(args)) {
    process.stdout.write(JSON.stringify(hits, null, 2) + '\n');
    return ExitCode.ok;
  }
  if (hits.length === 0) process.stdout.write('no matches\n');
  for (const h of hits) process.stdout.write(renderHit(h));
  return ExitCode.ok;
}

function renderHit(h: SearchHit): string {
  const where = [h.tool, h.path].filter(Boolean).join(' ');
  return `${h.score.toFixed(3)}  ${iso(h.time)}  [${h.type}]${where ? ` ${where}` : ''}  run ${h.runId ?? '-'}\n    ${oneLine(h.text, 110)}\n    ${oneLine(h.detail, 110)}\n`;
}

async function exportCommand(store: HistoryStore, args: Args): Promise<number> {
  if (args.positionals.length) throw new UsageError('export takes no arguments');
  const format = str(args, 'format') ?? 'json';
  if (format !== 'json' && format !== 'jsonl') throw new UsageError(`--format must be json or jsonl (got '${format}')`);
  // A closed pipe (`| head`) ends the export quietly instead of crashing on EPIPE.
  let closed = false;
  process.stdout.on('error', () => {
    closed = true;
  });
  const write = (s: string): Promise<void> => {
    if (closed) return Promise.reject(new PipeClosed());
    if (process.stdout.write(s)) return Promise.resolve();
    return new Promise<void>((r) => {
      process.stdout.once('drain', r);
      process.stdout.once('error', () => r());
    });
  };
  try {
    await writeAudit(store.exportAll(), format, write);
  } catch (err) {
    if (!(err instanceof PipeClosed)) throw err;
  }
  return ExitCode.ok;
}

class PipeClosed extends Error {}
