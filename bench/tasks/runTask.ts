/**
 * One task with a model: set up the workspace at the parent commit, let `patchpilot run` work on
 * the goal, then add the held-out tests and judge. A task whose repository is not cached, or whose
 * install fails, is a row that says so instead of a failure of the agent.
 */
import { failureBeforeModel, runAgent, type AgentFigures } from './agentRun';
import { missingFromCache } from './cache';
import { addHeldOutTests, judge } from './judge';
import { seconds } from './table';
import type { BenchTask } from './task';
import { prepareWorkspace } from './workspace';

export interface RunRow {
  ran: boolean;
  solved: boolean;
  cells: string[];
}

const skipped = (task: BenchTask, why: string): RunRow => ({ ran: false, solved: false, cells: [task.name, 'skipped', why, '', '', '', '', '', '', ''] });

export function cells(task: BenchTask, solved: string, f: AgentFigures): string[] {
  const tests = f.testRuns ? `${seconds(f.testMs)} (${f.testRuns} runs, ${f.wholeRuns} whole)` : '0 s';
  const exit = f.exitCode === undefined ? '' : ` (exit ${f.exitCode})`;
  const early = failureBeforeModel(f);
  return [
    task.name,
    solved,
    // A run that never had a model reply: its reason, not "tests not-run", is the row's story (table cells are one line).
    early ? `${f.status} before any model reply${exit}: ${early.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|')}` : `${f.status}, tests ${f.tests}${exit}`,
    String(f.steps),
    String(f.requests),
    f.tokens.toLocaleString('en-US'),
    seconds(f.wallMs),
    tests,
    String(f.patchesRefused),
    String(f.finishesRefused),
  ];
}

export async function runTask(task: BenchTask, cliArgs: string[], timeoutMs: number, keep: boolean, log: (m: string) => void): Promise<RunRow> {
  const missing = missingFromCache(task);
  if (missing) {
    log(`${task.name}: skipped, ${missing}`);
    return skipped(task, missing);
  }
  log(`${task.name}: setting up at ${task.parent.slice(0, 10)} and installing...`);
  const ws = await prepareWorkspace(task);
  try {
    if (ws.install.code !== 0) {
      log(`${task.name}: install failed\n${ws.install.tail}`);
      return skipped(task, 'install failed');
    }
    log(`${task.name}: workspace ${ws.root}; running the agent...`);
    const figures = await runAgent(task, ws.root, cliArgs, timeoutMs);
    addHeldOutTests(task, ws.root);
    const verdict = await judge(task, ws.root);
    const solved = verdict.code === 0;
    log(`${task.name}: ${solved ? 'solved' : 'not solved'} (events: ${figures.log})`);
    // Failed before any model reply: the judge's tail would only show the bug untouched ("# fail 1").
    const early = failureBeforeModel(figures);
    if (early) log(`${task.name}: the run ${figures.status} before any model reply: ${early}`);
    else if (!solved) log(verdict.tail.split('\n').slice(-15).join('\n'));
    return { ran: true, solved, cells: cells(task, solved ? 'yes' : 'no', figures) };
  } finally {
    if (keep) log(`kept ${ws.root}`);
    else ws.cleanup();
  }
}
