import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { CappedOutput } from '../../core/policy/exec/cappedOutput';
import type { TaskRunner, TaskRunRequest, TaskRunResult } from '../../core/ports';

const DEFAULT_MAX_OUTPUT = 200_000;
const KILL_GRACE_MS = 2000;

/**
 * Runs a shell command in its own process group, so a timeout or a cancel kills the whole tree
 * (npm -> sh -> node -> workers), and leftovers are reaped when the command itself exits.
 */
export class NodeTaskRunner implements TaskRunner {
  run(request: TaskRunRequest): Promise<TaskRunResult> {
    const started = Date.now();
    const output = new CappedOutput(request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
    const live = new StringDecoder('utf8');
    return new Promise((resolve) => {
      if (request.signal?.aborted) {
        resolve({ exitCode: null, output: '', truncated: false, durationMs: 0, timedOut: false, cancelled: true });
        return;
      }
      // One pipe for both streams (exec 2>&1) keeps stdout and stderr in the order they were written.
      const child = spawn('/bin/sh', ['-c', `exec 2>&1\n${request.command}`], {
        cwd: request.cwd,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: taskEnv(),
      });
      let timedOut = false;
      let cancelled = false;
      let graceTimer: NodeJS.Timeout | undefined;
      const killGroup = (signal: NodeJS.Signals) => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, signal);
        } catch {
          /* already gone */
        }
      };
      const stop = () => {
        killGroup('SIGTERM');
        graceTimer ??= setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
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
      child.on('exit', () => killGroup('SIGKILL'));
      let spawnError: Error | undefined;
      child.on('error', (err) => (spawnError = err));
      child.on('close', (code) => {
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

/** The user's environment, minus what would make their tools behave differently under PatchPilot. */
function taskEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
  // Set when PatchPilot itself runs under `node --test`: a child `node --test` would then report to us, not print.
  delete env.NODE_TEST_CONTEXT;
  return env;
}
