import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { CappedOutput } from '../../core/sandbox';
import { buildChildEnv } from '../../core/sandbox';
import { CommandProcesses } from '../../core/sandbox';
import { describeProtectedChanges, GuardedRun, type GuardOptions } from '../../core/sandbox';
import type { TaskRunner, TaskRunRequest, TaskRunResult } from '../../core/ports';

/** In memory; the rest of a longer output waits in a temporary file (CappedOutput), so the summary reads it all. */
const DEFAULT_MAX_OUTPUT = 200_000;
const KILL_GRACE_MS = 2000;

/**
 * Runs a shell command in its own session, so a timeout or a cancel kills the whole tree
 * (npm -> sh -> node -> workers), and leftovers, double-forked ones too, are killed when the command
 * itself exits (sessionKill.ts). The environment is the same allowlist as run_command's: a test's
 * output goes to the model.
 */
export class NodeTaskRunner implements TaskRunner {
  /**
   * `envAllow`: extra variable names to pass (patchpilot.policy.envAllow). `guard`: what a test command
   * may not change or show (protected paths put back, ignored files' content cut from the output), as
   * for run_command: this runner has no sandbox.
   */
  constructor(private readonly options: { envAllow?: readonly string[]; guard?: Omit<GuardOptions, 'keepBytes'>; cgroupRoot?: string | false } = {}) {}

  async run(request: TaskRunRequest): Promise<TaskRunResult> {
    if (!this.options.guard) return this.execute(request);
    const guard = await GuardedRun.begin({ ...this.options.guard, keepBytes: true });
    const result = await this.execute(request);
    const protectedChanges = await guard.end();
    const note = describeProtectedChanges(protectedChanges);
    const output = guard.redactor.redact(result.output).text;
    return { ...result, output: note ? `${output}${output.endsWith('\n') || !output ? '' : '\n'}${note}\n` : output, protectedChanges };
  }

  private execute(request: TaskRunRequest): Promise<TaskRunResult> {
    const started = Date.now();
    const output = new CappedOutput(request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
    const live = new StringDecoder('utf8');
    return new Promise((resolve) => {
      if (request.signal?.aborted) {
        resolve({ exitCode: null, output: '', truncated: false, durationMs: 0, timedOut: false, cancelled: true });
        return;
      }
      const procs = new CommandProcesses({ cgroupRoot: this.options.cgroupRoot });
      // One pipe for both streams (exec 2>&1) keeps stdout and stderr in the order they were written;
      // the command's own cgroup, where there is one, holds whatever it starts (commandCgroup.ts).
      const [file, args] = procs.wrap('/bin/sh', ['-c', `exec 2>&1\n${request.command}`]);
      const child = spawn(file, args, {
        cwd: request.cwd,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: taskEnv(procs, this.options.envAllow),
      });
      procs.attach(child.pid);
      let timedOut = false;
      let cancelled = false;
      let graceTimer: NodeJS.Timeout | undefined;
      const stop = () => {
        procs.signal('SIGTERM');
        graceTimer ??= setTimeout(() => void procs.killAll(), KILL_GRACE_MS);
      };
      const onData = (chunk: Buffer) => {
        output.push(chunk);
        if (request.onOutput) request.onOutput(live.write(chunk));
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      const timeout = request.timeoutMs
        ? setTimeout(() => {
            timedOut = true;
            stop();
          }, request.timeoutMs)
        : undefined;
      const onAbort = () => {
        cancelled = true;
        stop();
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      // The shell exited: background children it left would hold the pipes open forever.
      let spawnError: Error | undefined;
      const reaped = new Promise<unknown>((r) => {
        child.on('exit', () => r(procs.killAll()));
        child.on('error', (err) => r((spawnError = err)));
      });
      child.on('close', async (code) => {
        await reaped;
        clearTimeout(timeout);
        clearTimeout(graceTimer);
        request.signal?.removeEventListener('abort', onAbort);
        if (spawnError) output.push(Buffer.from(`\n${spawnError.message}\n`));
        resolve({
          exitCode: timedOut || cancelled ? null : code,
          output: output.text(),
          truncated: output.droppedBytes > 0,
          durationMs: Date.now() - started,
          timedOut,
          cancelled,
        });
      });
    });
  }
}

/**
 * The allowlisted environment (childEnv.ts) with CI, NO_COLOR and FORCE_COLOR set so tools print
 * plain, non-interactive output. NODE_TEST_CONTEXT (set when PatchPilot itself runs under
 * `node --test`, which would make a child `node --test` report to us) is not on the allowlist.
 */
function taskEnv(procs: CommandProcesses, envAllow: readonly string[] | undefined): NodeJS.ProcessEnv {
  return buildChildEnv({ allow: envAllow, set: { CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...procs.env() } }).env;
}
