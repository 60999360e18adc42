/**
 * `--check`: is each task honest, without a model? In one workspace at the parent commit: add the
 * held-out tests and judge (must fail: the bug is there), then apply the fix's other changes and
 * judge again (must pass: the test judges that bug, and the install and judge commands work here).
 */
import { addHeldOutTests, applyFix, judge } from './judge';
import type { BenchTask } from './task';
import { prepareWorkspace } from './workspace';

export interface CheckRow {
  task: string;
  verdict: 'ok' | 'DISHONEST' | 'broken';
  before: string;
  after: string;
  installMs: number;
  /** The judge's output when the verdict is not ok. */
  detail?: string;
}

const outcome = (r: { code: number | null; timedOut: boolean; ms: number }) =>
  `${r.timedOut ? 'timeout' : r.code === 0 ? 'pass' : 'fail'} (${(r.ms / 1000).toFixed(1)} s)`;

export async function checkTask(task: BenchTask, keep: boolean): Promise<CheckRow> {
  const ws = await prepareWorkspace(task);
  const row: CheckRow = { task: task.name, verdict: 'broken', before: '-', after: '-', installMs: ws.install.ms };
  try {
    if (ws.install.code !== 0) return { ...row, detail: `install failed:\n${ws.install.tail}` };
    addHeldOutTests(task, ws.root);
    const before = await judge(task, ws.root);
    applyFix(task, ws.root);
    const after = await judge(task, ws.root);
    const honest = before.code !== 0 && !before.timedOut && after.code === 0;
    const detail = honest ? undefined : `before:\n${before.tail}\nafter:\n${after.tail}`;
    return { ...row, verdict: honest ? 'ok' : after.code === 0 ? 'DISHONEST' : 'broken', before: outcome(before), after: outcome(after), detail };
  } finally {
    if (keep) process.stderr.write(`kept ${ws.root}\n`);
    else ws.cleanup();
  }
}
