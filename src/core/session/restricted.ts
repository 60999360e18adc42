/**
 * Restricted mode (a workspace the user does not trust): the agent reads and explains only. One
 * decorator over the ports through which the agent changes the workspace or runs its code, applied
 * once where the agent is composed (createAgent): writes refused, patches dry-run only, no command
 * executor, no test command run. The approval mode (plan) and the tools offered follow from it; this
 * makes sure whatever asks anyway is refused with one message.
 */
import type { CommandExecutor, PatchEngine, TaskRunner, TaskRunResult, TestCommandRunner, WorkspaceFs } from '../ports';

export const RESTRICTED_WRITE = 'not written: the workspace is not trusted (restricted mode reads and explains only)';
export const RESTRICTED_RUN = 'not run: the workspace is not trusted (restricted mode reads and explains only)';

/** The host's ports that act on the workspace. */
export interface ActingPorts {
  fs: WorkspaceFs;
  patches: PatchEngine;
  /** run_command's and the hooks' executor. */
  exec?: CommandExecutor;
  /** The host's task runner, and the runner of test commands over it and `exec`. */
  tasks: TaskRunner;
  testCommands: TestCommandRunner;
}

/** The same ports, refusing every action when `restricted`; unchanged otherwise. */
export function restrictedWhen<P extends ActingPorts>(restricted: boolean | undefined, ports: P): P {
  if (!restricted) return ports;
  const tasks: TaskRunner = { run: () => Promise.resolve(notRun()) };
  return {
    ...ports,
    fs: readOnlyFs(ports.fs),
    patches: dryRunOnly(ports.patches),
    exec: undefined,
    tasks,
    testCommands: refusingTests(ports.testCommands, tasks),
  };
}

function notRun(): TaskRunResult {
  return { exitCode: null, output: RESTRICTED_RUN, truncated: false, durationMs: 0, timedOut: false, cancelled: true };
}

/** Dry runs (what a patch would do) but no write, whatever the approval mode says. */
function dryRunOnly(engine: PatchEngine): PatchEngine {
  return {
    apply: (text, options) =>
      options.dryRun ? engine.apply(text, options) : Promise.resolve({ ok: false, dryRun: false, files: [], reversePatch: '', error: RESTRICTED_WRITE }),
  };
}

function readOnlyFs(fs: WorkspaceFs): WorkspaceFs {
  const refuse = () => Promise.reject(new Error(RESTRICTED_WRITE));
  return {
    realRoot: () => fs.realRoot(),
    stat: (p) => fs.stat(p),
    readFile: (p) => fs.readFile(p),
    list: (p) => fs.list(p),
    writeFile: refuse,
    applyChanges: refuse,
  };
}

/** No test command runs, whatever asks for one; the facts (trust, the definitions' guard) stay as they are. */
function refusingTests(runner: TestCommandRunner, tasks: TaskRunner): TestCommandRunner {
  return {
    sandboxed: undefined,
    workspaceTrusted: runner.workspaceTrusted,
    ...(runner.redefined ? { redefined: (command: string) => runner.redefined?.(command) } : {}),
    run: (request) => tasks.run(request),
  };
}
