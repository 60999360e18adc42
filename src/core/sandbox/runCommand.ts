import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../base/errors';
import { bwrapArguments } from './bwrapArgs';
import { CappedOutput } from './cappedOutput';
import { probeSandbox, type SandboxStatus } from './probe';
import { buildChildEnv } from './childEnv';
import { CommandProcesses } from './sessionKill';
import { GuardedRun, type GuardOptions, type ProtectedChange } from './protectedGuard';
import { createIgnoreFilter } from '../policy/path/ignoreFilter';
import { unixSocketRules } from './unixSockets';
import { closeProgramFd, openProgramFd } from './programFd';

export interface RunCommandOptions {
  /** A shell command line, already allowed by the command policy. Runs as `bash -c`. */
  command: string;
  cwd: string;
  workspaceRoot: string;
  timeoutMs?: number;
  /** Per stream, in memory; past it the output spills to a temporary file, kept whole up to 64 MiB (cappedOutput.ts). Default 1 MiB. */
  maxOutputBytes?: number;
  allowNetwork?: boolean;
  signal?: AbortSignal;
  /** Written to the command's stdin, then closed (a hook's event as JSON). Default: stdin is /dev/null. */
  stdin?: string;
  /** Where the child's variables come from (default: process.env); only allowlisted names pass (childEnv). */
  env?: NodeJS.ProcessEnv;
  /** Whose credentials to hide (default: os.homedir()). */
  homeDir?: string;
  /** 'auto' (default): sandbox when bwrap works. 'off': never. 'require': refuse to run unsandboxed. */
  sandbox?: 'auto' | 'off' | 'require';
  /** Between SIGTERM and SIGKILL on timeout or cancel. Default 2000 ms. */
  killGraceMs?: number;
  /** Extra variable names to pass (the user setting patchpilot.policy.envAllow); credentials are still dropped. */
  envAllow?: readonly string[];
  /**
   * What the command may not read or change (attacks.guard): ignored paths, extra protected globs, the state
   * folder. Default: the workspace's `.patchpilotignore` and the default protected set.
   */
  guard?: Omit<GuardOptions, 'root' | 'keepBytes'>;
  /** Home-relative paths left readable in the sandbox besides the built-in exceptions. */
  homeAllow?: readonly string[];
  /** Absolute folders left readable in the sandbox wherever they are (the bundled skills). */
  readOnlyPaths?: readonly string[];
  /**
   * Unix sockets a sandboxed command may connect to (`patchpilot.sandbox.allowUnixSockets`, user
   * settings only). Empty (default): `socket(AF_UNIX)` is refused by a seccomp filter. Non-empty: the
   * filter is lifted and every other socket the host lists is masked (unixSockets.ts).
   */
  allowUnixSockets?: readonly string[];
  /**
   * Where the command's own cgroup is made, so that everything it starts is killed with it
   * (commandCgroup.ts). Default: a child of this process's cgroup when that is writable; `false`: none.
   */
  cgroupRoot?: string | false;
  /**
   * Live output of both streams as it comes, for a terminal the user watches (VS Code's task
   * terminal). Not redacted and not capped: the result's stdout/stderr are what goes to the model.
   */
  onOutput?(chunk: string, stream: 'stdout' | 'stderr'): void;
}

export interface RunCommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  stdout: string;
  stderr: string;
  stdoutDroppedBytes: number;
  stderrDroppedBytes: number;
  durationMs: number;
  sandboxed: boolean;
  /** Why not sandboxed, in words the UI can show; undefined when sandboxed. */
  sandboxMessage?: string;
  /** Protected paths the command created or changed, and what was done about it. */
  protectedChanges: ProtectedChange[];
  /** How many pieces of ignored files were cut from the output. */
  redactions: number;
}

/** Runs one command, sandboxed when possible, and makes sure nothing it started outlives it. */
export async function runCommand(opts: RunCommandOptions): Promise<RunCommandResult> {
  const workspaceRoot = checkedDir(opts.workspaceRoot, 'workspaceRoot');
  const cwd = checkedDir(path.resolve(workspaceRoot, opts.cwd), 'cwd');
  if (!(cwd === workspaceRoot || cwd.startsWith(workspaceRoot + path.sep))) {
    throw new UserError(`cwd ${opts.cwd} is outside the workspace ${opts.workspaceRoot}`, 'cwd-outside-workspace');
  }
  const status = sandboxStatus(opts.sandbox ?? 'auto');
  const sandboxed = status.available;
  const sandboxMessage = sandboxed ? undefined : status.message;
  const started = Date.now();
  if (opts.signal?.aborted) return cancelledBeforeStart(sandboxed, sandboxMessage);
  // Without a sandbox nothing stops a write: keep the protected files' bytes to put them back.
  const guard = await GuardedRun.begin({ root: workspaceRoot, keepBytes: !sandboxed, ...(opts.guard ?? defaultGuard(workspaceRoot)) });
  const { child, program, procs } = startProcess(opts, { workspaceRoot, cwd, status, guard });
  feedStdin(child.stdin, opts.stdin);
  const maxOutput = opts.maxOutputBytes ?? 1024 * 1024;
  const stdout = new CappedOutput(maxOutput);
  const stderr = new CappedOutput(maxOutput);
  collectOutput(child, stdout, stderr, opts.onOutput);
  const stopper = stopOnTimeoutOrAbort(procs, opts);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  try {
    // Background jobs the command left behind (`server &`) die with it; escaped ones too.
    await procs.killAll();
    stopper.dispose();
    await drain(child.stdout, child.stderr);
    // Every process of the command is gone by now: what it left in protected paths is final.
    const protectedChanges = await guard.end();
    if (exit.error) throw new UserError(`could not start ${program}: ${exit.error.message}`, 'spawn-failed');
    const out = guard.redactor.redact(stdout.text());
    const err = guard.redactor.redact(stderr.text());
    return {
      exitCode: exit.code,
      signal: exit.signal,
      timedOut: stopper.state.timedOut,
      cancelled: stopper.state.cancelled,
      stdout: out.text,
      stderr: err.text,
      protectedChanges,
      redactions: out.count + err.count,
      stdoutDroppedBytes: stdout.droppedBytes,
      stderrDroppedBytes: stderr.droppedBytes,
      durationMs: Date.now() - started,
      sandboxed,
      sandboxMessage,
    };
  } finally {
    // Output spilled to a temporary file goes even when the run fails here (text() deletes it too).
    stdout.discard();
    stderr.discard();
  }
}

/** Whether commands run in the sandbox: 'off' never, 'require' refuses to run without it, 'auto' when bwrap works. */
function sandboxStatus(mode: 'auto' | 'off' | 'require'): SandboxStatus {
  const status: SandboxStatus = mode === 'off' ? { available: false, message: 'commands are not sandboxed: the sandbox is turned off' } : probeSandbox();
  if (mode === 'require' && !status.available) throw new UserError(status.message, 'sandbox-unavailable');
  return status;
}

/** A command cancelled before it started: nothing ran. */
function cancelledBeforeStart(sandboxed: boolean, sandboxMessage: string | undefined): RunCommandResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: true,
    stdout: '',
    stderr: '',
    stdoutDroppedBytes: 0,
    stderrDroppedBytes: 0,
    durationMs: 0,
    sandboxed,
    sandboxMessage,
    protectedChanges: [],
    redactions: 0,
  };
}

type CommandChild = ChildProcessByStdio<Writable | null, Readable, Readable>;

/** Starts the command (inside bwrap when sandboxed) in a process group and cgroup of its own, so that all of it can be found and killed. */
function startProcess(
  opts: RunCommandOptions,
  where: { workspaceRoot: string; cwd: string; status: SandboxStatus; guard: GuardedRun },
): { child: CommandChild; program: string; procs: CommandProcesses } {
  const { status } = where;
  const sandboxed = status.available;
  const homeDirs = [opts.homeDir ?? os.homedir(), ...(opts.homeDir ? [] : [accountHome()])];
  const sockets = sandboxed ? unixSocketRules({ filterWorks: status.blocksUnixSockets === true, allow: opts.allowUnixSockets ?? [] }) : undefined;
  // bwrap reads the filter from fd 3 of its own (the fourth stdio entry below).
  const filterFd = sockets?.seccomp ? openProgramFd(sockets.seccomp) : undefined;
  const layout = {
    workspaceRoot: where.workspaceRoot,
    cwd: where.cwd,
    homeDirs,
    homeAllow: opts.homeAllow,
    readOnlyPaths: opts.readOnlyPaths,
    allowNetwork: !!opts.allowNetwork,
    workspaceMounts: where.guard.sandboxMounts(),
    socketMounts: sockets?.mounts,
    seccompFd: filterFd === undefined ? undefined : 3,
  };
  // In the sandbox the pid namespace already ends everything with bwrap; a systemd scope is kept for
  // unsandboxed commands, where it is needed (and systemd-run is not relied on to keep bwrap's fd 3).
  const procs = new CommandProcesses({ cgroupRoot: opts.cgroupRoot, noSystemdScope: sandboxed });
  const [program, programArgs] = sandboxed ? [status.bwrapPath!, bwrapArguments(layout, opts.command)] : ['bash', ['-c', opts.command]];
  const [file, args] = procs.wrap(program, programArgs);
  // detached: a new session and process group; with the marker in the environment and the cgroup,
  // every process the command starts can be found and killed, double-forked ones included (sessionKill.ts).
  const env = buildChildEnv({ base: opts.env, allow: opts.envAllow, set: procs.env() }).env;
  let child: CommandChild;
  try {
    child = spawn(file, args, {
      cwd: where.cwd,
      env,
      detached: true,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(filterFd === undefined ? [] : [filterFd])],
    }) as CommandChild;
  } finally {
    closeProgramFd(filterFd);
  }
  procs.attach(child.pid);
  return { child, program, procs };
}

/** Keeps both streams (capped) and passes them on live when someone watches. */
function collectOutput(child: CommandChild, stdout: CappedOutput, stderr: CappedOutput, onOutput: RunCommandOptions['onOutput']): void {
  const live = onOutput ? { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') } : undefined;
  child.stdout.on('data', (b: Buffer) => {
    stdout.push(b);
    if (live) onOutput!(live.stdout.write(b), 'stdout');
  });
  child.stderr.on('data', (b: Buffer) => {
    stderr.push(b);
    if (live) onOutput!(live.stderr.write(b), 'stderr');
  });
}

/** Ends the command on its timeout or when its signal aborts: SIGTERM to all of it, SIGKILL after the grace; `state` says which came. */
function stopOnTimeoutOrAbort(procs: CommandProcesses, opts: RunCommandOptions) {
  const state = { timedOut: false, cancelled: false };
  let killTimer: NodeJS.Timeout | undefined;
  const terminate = () => {
    if (killTimer) return;
    procs.signal('SIGTERM');
    killTimer = setTimeout(() => void procs.killAll(), opts.killGraceMs ?? 2000);
  };
  const timeout =
    opts.timeoutMs !== undefined
      ? setTimeout(() => {
          state.timedOut = true;
          terminate();
        }, opts.timeoutMs)
      : undefined;
  const onAbort = () => {
    state.cancelled = true;
    terminate();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // A cancel that came while the guard scanned the workspace (before the listener) ends the command now.
  if (opts.signal?.aborted) onAbort();
  const dispose = () => {
    clearTimeout(timeout);
    clearTimeout(killTimer);
    opts.signal?.removeEventListener('abort', onAbort);
  };
  return { state, dispose };
}

/** Writes the input and closes stdin; a command that never reads it (or exits first) is no error. */
function feedStdin(stdin: Writable | null, text: string | undefined): void {
  if (!stdin || text === undefined) return;
  stdin.on('error', () => undefined); // EPIPE: the command did not read its input
  stdin.end(text);
}

/** Wait briefly for the pipes to close; a process that escaped and holds them must not hang us. */
async function drain(...streams: NodeJS.ReadableStream[]): Promise<void> {
  await Promise.race([
    Promise.all(
      streams.map(
        (s) =>
          new Promise<void>((r) => {
            if ((s as unknown as { closed?: boolean }).closed) r();
            else s.once('close', () => r());
          }),
      ),
    ),
    new Promise<void>((r) => setTimeout(r, 500).unref()),
  ]);
  for (const s of streams) (s as unknown as { destroy(): void }).destroy();
}

/** The account's own home (from the password database), which may differ from $HOME. */
function accountHome(): string {
  try {
    return os.userInfo().homedir;
  } catch {
    return os.homedir();
  }
}

function defaultGuard(root: string): Omit<GuardOptions, 'root' | 'keepBytes'> {
  const filter = createIgnoreFilter(root);
  return { ignored: () => filter.snapshot() };
}

function checkedDir(p: string, what: string): string {
  const abs = path.resolve(p);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new UserError(`${what} ${p} is not an existing directory`, 'bad-directory');
  return realpathSync(abs);
}
