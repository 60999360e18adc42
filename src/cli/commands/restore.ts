import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, confirm, parseCommandLine } from '../io';
import { errorMessage } from '../../core/base';
import {
  CheckpointStore,
  describeItem,
  planDiff,
  planRedo,
  planRestore,
  redo,
  resolveRun,
  restore,
  type RestorePlan,
  type RestoreResult,
} from '../../core/checkpoint';
import { STATE_DIR } from '../../core/session';
import { recordCliRestore } from '../node/telemetry';
import { stderrNotifier } from '../node/runConfig';

const OPTIONS = {
  workspace: { type: 'string' },
  run: { type: 'string' },
  'before-step': { type: 'string' },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean' },
  'restore-rest': { type: 'boolean' },
  redo: { type: 'boolean' },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const dir = path.resolve(values.workspace ?? process.cwd());
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) throw new UsageError(`--workspace ${dir} is not a folder`);
  const root = realpathSync(dir);
  const store = new CheckpointStore(path.join(root, STATE_DIR));
  let plan: RestorePlan;
  if (values.redo) {
    if (values.run || values['before-step']) throw new UsageError('--redo takes no --run or --before-step');
    const planned = planRedo(store, root);
    if (!planned) return fail('there is no restore to redo');
    plan = planned;
  } else {
    if (!values.run) throw new UsageError('--run RUN_ID (or last) is required');
    const step = Number(values['before-step']);
    if (!values['before-step'] || !Number.isInteger(step) || step < 1) throw new UsageError('--before-step N (a step number, 1 or more) is required');
    try {
      plan = planRestore(store, root, resolveRun(store, values.run), step);
    } catch (err) {
      return fail(errorMessage(err));
    }
  }
  printPlan(plan, values.redo === true);
  if (values['dry-run']) {
    process.stdout.write(planDiff(store, plan));
    return plan.blocked.length && !values['restore-rest'] ? ExitCode.failed : ExitCode.ok;
  }
  if (plan.blocked.length && !values['restore-rest'])
    return fail(`nothing was restored: ${plan.blocked.length} file(s) block it (--restore-rest restores the others)`);
  if (plan.items.length === 0) {
    process.stderr.write('patchpilot restore: nothing to do, every file is already as it was\n');
    return ExitCode.ok;
  }
  if (!values.yes) {
    if (!process.stdin.isTTY)
      return fail('refusing to write without --yes: stdin is not a terminal, so nobody can confirm (run with --dry-run to see the changes)');
    if (!(await confirm(`Restore ${plan.items.length} file(s)? [y/N] `))) return fail('not restored (not confirmed)');
  }
  const options = { restoreRest: values['restore-rest'] === true };
  const result: RestoreResult = values.redo ? redo(store, root, plan, options) : restore(store, root, plan, options);
  if (!result.ok) {
    for (const b of result.blocked) process.stderr.write(`  ${b.path}: ${b.reason}\n`);
    return fail(result.reason);
  }
  process.stderr.write(
    `patchpilot restore: restored ${result.restored.length} file(s)${result.skipped.length ? `, left ${result.skipped.length} blocked file(s) as they are` : ''}\n`,
  );
  await recordCliRestore(root, result.restored.length, stderrNotifier);
  return ExitCode.ok;
}

function printPlan(plan: RestorePlan, isRedo: boolean): void {
  const err = process.stderr;
  err.write(
    isRedo
      ? `Redo: run ${plan.runId} from step ${plan.beforeStep} on\n`
      : `Restore run ${plan.runId} to before step ${plan.beforeStep} (undoes step${plan.steps.length > 1 ? 's' : ''} ${plan.steps.join(', ')})\n`,
  );
  for (const item of plan.items) err.write(`  ${describeItem(item)}\n`);
  if (plan.blocked.length) {
    err.write('Blocked:\n');
    for (const b of plan.blocked) err.write(`  ${b.path}: ${b.reason}\n`);
  }
}

function fail(message: string): number {
  process.stderr.write(`patchpilot restore: ${message}\n`);
  return ExitCode.failed;
}
