/**
 * A local MCP server runs in the same bubblewrap sandbox as the agent's commands
 * (sandbox/bwrapArgs.ts): the workspace writable, the rest of the machine read-only, the home
 * an empty tmpfs but for the toolchain exceptions, ignored files masked and protected paths
 * (the server's own named files among them) read-only, so an approved server cannot change the
 * code it runs or read what `.patchpilotignore` hides. It gets the commands' unix-socket rules too
 * (sandbox/unixSockets.ts): `socket(AF_UNIX)` refused by the seccomp filter, or, with the user's
 * `patchpilot.sandbox.allowUnixSockets`, those sockets bound in and the others masked; its stdio
 * pipes are not sockets, so the transport is untouched (attacks.mcpSockets). Unlike commands it
 * keeps the network (TCP/UDP): many servers exist to reach a service. The user may exempt a server by name in a user-level setting
 * (`patchpilot.mcp.unsandboxedServers`); without bubblewrap it runs unconfined, and its approval
 * question says so.
 */
import { accessSync, constants, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArguments } from '../sandbox/bwrapArgs';
import { probeSandbox } from '../sandbox/probe';
import { GuardedRun, type GuardOptions } from '../sandbox/protectedGuard';
import { unixSocketRules } from '../sandbox/unixSockets';

export interface ServerSandboxOptions {
  /** What commands may not read or change (the agent's command guard, MCP-named files included). */
  guard: Omit<GuardOptions, 'keepBytes'>;
  /** Server names the user exempted (user settings only). */
  unsandboxed: readonly string[];
  /** patchpilot.policy.homeAllow. */
  homeAllow?: readonly string[];
  /** Absolute folders left readable wherever they are (the bundled skills). */
  readOnlyPaths?: readonly string[];
  /** patchpilot.sandbox.allowUnixSockets (user settings only): the sockets a sandboxed server may connect to. */
  allowUnixSockets?: readonly string[];
}

/** `blocksUnixSockets`: bwrap here loads the seccomp filter that refuses `socket(AF_UNIX)` (probe.ts). */
export type SandboxVerdict = { sandboxed: true; bwrapPath: string; blocksUnixSockets: boolean } | { sandboxed: false; why: string };

/** How to start a server: `seccomp`, when set, is the filter bwrap reads from the child's fd 3 (`--seccomp 3`). */
export interface ServerLaunch {
  command: string;
  args: string[];
  seccomp?: Buffer;
}

/** Whether this server runs sandboxed, and if not, a sentence for its approval question. */
export function sandboxVerdict(name: string, options: ServerSandboxOptions | undefined): SandboxVerdict {
  if (!options) return { sandboxed: false, why: 'with your full rights' };
  if (options.unsandboxed.includes(name)) return { sandboxed: false, why: 'you exempted it (patchpilot.mcp.unsandboxedServers); it has your full rights' };
  const probe = probeSandbox();
  if (!probe.available)
    return { sandboxed: false, why: `no sandbox works here (${probe.message.replace(/^commands are not sandboxed: /, '')}); it has your full rights` };
  return { sandboxed: true, bwrapPath: probe.bwrapPath!, blocksUnixSockets: probe.blocksUnixSockets === true };
}

/** bwrap and its arguments for `command args...` in `cwd`: the masks and read-only binds of a fresh guard walk, and the unix-socket rules. */
export async function sandboxedLaunch(o: {
  bwrapPath: string;
  blocksUnixSockets: boolean;
  root: string;
  cwd: string;
  command: string;
  args: readonly string[];
  options: ServerSandboxOptions;
}): Promise<ServerLaunch> {
  const guard = await GuardedRun.begin({ ...o.options.guard, keepBytes: false });
  const sockets = unixSocketRules({ filterWorks: o.blocksUnixSockets, allow: o.options.allowUnixSockets ?? [] });
  const line = ['exec', o.command, ...o.args].map((w, i) => (i === 0 ? w : shellQuote(w))).join(' ');
  const args = bwrapArguments(
    {
      workspaceRoot: o.root,
      cwd: o.cwd,
      homeDirs: [...new Set([os.homedir(), accountHome()])],
      homeAllow: o.options.homeAllow,
      readOnlyPaths: o.options.readOnlyPaths,
      // Servers reach their services (an API, a database): the network stays; the files and the host's unix sockets do not.
      allowNetwork: true,
      workspaceMounts: guard.sandboxMounts(),
      socketMounts: sockets.mounts,
      seccompFd: sockets.seccomp ? 3 : undefined,
    },
    line,
  );
  return { command: o.bwrapPath, args, ...(sockets.seccomp ? { seccomp: sockets.seccomp } : {}) };
}

/** bash's own "not found" inside bwrap is less clear than the unconfined spawn's: say it the same way, before starting. */
export function commandExists(command: string, envPath: string | undefined, cwd: string): boolean {
  const runnable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return runnable(path.resolve(cwd, command));
  return (envPath ?? '').split(path.delimiter).some((dir) => dir && runnable(path.resolve(cwd, dir, command)));
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function accountHome(): string {
  try {
    return os.userInfo().homedir;
  } catch {
    return path.resolve(os.homedir());
  }
}
