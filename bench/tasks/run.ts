/**
 * Real-task benchmark: `npm run bench:tasks -- [options] [TASK...] [-- CLI-ARGS]`.
 * Each task (defs/*.json) is a real bug fix: the agent gets the parent commit and the issue, then
 * the held-out test judges. Prints a markdown table per mode (copied into docs/benchmarks.md).
 *   --check                  no model: each task's held-out test fails before the fix, passes with it
 *   --fill-cache-from DIR    copy the tasks' repositories into bench/.cache/tasks first
 *   --list                   the tasks and whether their repository is cached
 *   --keep                   keep the temporary workspaces (their paths go to stderr)
 *   --run-timeout-minutes N  a run's wall clock before it is killed (default 30)
 * After `--`: extra arguments for `patchpilot run` (--max-steps 30, --model M, ...). The endpoint
 * comes from the environment, as for the CLI: PATCHPILOT_BASE_URL, PATCHPILOT_MODEL, a key.
 */
import { parseArgs } from 'node:util';
import { fillCache, missingFromCache } from './cache';
import { checkTask, type CheckRow } from './check';
import { runTask, type RunRow } from './runTask';
import { loadTasks, type BenchTask } from './task';
import { killAllOnSignal } from './sh';
import { markdownTable, seconds } from './table';

const log = (m: string) => process.stderr.write(`${m}\n`);

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    check: { type: 'boolean' },
    list: { type: 'boolean' },
    keep: { type: 'boolean' },
    'fill-cache-from': { type: 'string' },
    'run-timeout-minutes': { type: 'string' },
  },
});
// parseArgs leaves what follows `--` among the positionals: those are the CLI's.
const dashDash = process.argv.indexOf('--', 2);
const cliArgs = dashDash === -1 ? [] : process.argv.slice(dashDash + 1);
const names = positionals.slice(0, positionals.length - cliArgs.length);

function listRows(tasks: BenchTask[]): string {
  const rows = tasks.map((t) => [t.name, t.repo, t.fix.slice(0, 10), String(t.fixFiles.length), t.suite ? 'slow' : '', missingFromCache(t) ?? 'cached']);
  return markdownTable(['task', 'repository', 'fix', 'files', 'suite', 'cache'], rows);
}

async function check(tasks: BenchTask[]): Promise<boolean> {
  const rows: CheckRow[] = [];
  for (const t of tasks) {
    const missing = missingFromCache(t);
    if (missing) {
      log(`${t.name}: skipped, ${missing}`);
      rows.push({ task: t.name, verdict: 'broken', before: 'skipped', after: missing, installMs: 0 });
      continue;
    }
    log(`${t.name}: checking...`);
    const row = await checkTask(t, values.keep === true);
    if (row.detail) log(`${t.name}: ${row.verdict}\n${row.detail}`);
    rows.push(row);
  }
  const table = rows.map((r) => {
    const t = tasks.find((x) => x.name === r.task)!;
    return [r.task, t.repo, t.fix.slice(0, 10), t.fixFiles.join(', '), r.before, r.after, r.installMs ? seconds(r.installMs) : '-', r.verdict];
  });
  console.log(markdownTable(['task', 'repository', 'fix', 'files the fix changed', 'held-out test before', 'with the fix', 'install', 'check'], table));
  return rows.every((r) => r.verdict === 'ok');
}

async function run(tasks: BenchTask[]): Promise<void> {
  const timeoutMs = Number(values['run-timeout-minutes'] ?? 30) * 60_000;
  const rows: RunRow[] = [];
  for (const t of tasks) rows.push(await runTask(t, cliArgs, timeoutMs, values.keep === true, log));
  const header = ['task', 'solved', 'status', 'steps', 'requests', 'tokens', 'wall', 'in tests', 'patches refused', 'finishes refused'];
  console.log(
    markdownTable(
      header,
      rows.map((r) => r.cells),
    ),
  );
  const ran = rows.filter((r) => r.ran);
  log(`solved ${ran.filter((r) => r.solved).length} of ${ran.length} run (${rows.length - ran.length} skipped)`);
}

async function main(): Promise<void> {
  killAllOnSignal();
  const tasks = loadTasks(names);
  if (values['fill-cache-from']) for (const line of fillCache(tasks, values['fill-cache-from'])) log(line);
  if (values.list) console.log(listRows(tasks));
  else if (values.check) process.exitCode = (await check(tasks)) ? 0 : 1;
  else await run(tasks);
}

main().catch((e: unknown) => {
  log(e instanceof Error ? e.message : String(e));
  process.exitCode = 2;
});
