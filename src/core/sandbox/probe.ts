import { spawnSync } from 'node:child_process';
import { buildChildEnv } from './childEnv';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { closeProgramFd, openProgramFd } from './programFd';
import { unixSocketFilter } from './seccompFilter';

/** Whether commands can run inside bubblewrap here, and if not, a sentence saying why. */
export interface SandboxStatus {
  available: boolean;
  /** For the UI/CLI: "commands run in a sandbox ..." or "commands are not sandboxed: ...". */
  message: string;
  bwrapPath?: string;
  /**
   * Whether sandboxed commands get the seccomp filter that refuses `socket(AF_UNIX)` (seccompFilter.ts).
   * False on an architecture the filter does not know, or when bwrap refused the filter: commands
   * still run sandboxed, and `message` says unix sockets are not blocked.
   */
  blocksUnixSockets?: boolean;
}

export const NOT_SANDBOXED = 'commands are not sandboxed';

let cached: SandboxStatus | undefined;

function findOnPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, name);
    try {
      accessSync(full, constants.X_OK);
      return full;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/**
 * Runs `bwrap` once with the same kind of namespaces real commands get (user namespaces are often
 * restricted in containers and on hardened kernels), and caches the answer for the process.
 */
export function probeSandbox(options: { refresh?: boolean } = {}): SandboxStatus {
  if (cached && !options.refresh) return cached;
  cached = probe();
  return cached;
}

function probe(): SandboxStatus {
  if (process.platform !== 'linux') {
    return { available: false, message: `${NOT_SANDBOXED}: the sandbox uses bubblewrap, which exists only on Linux (this is ${process.platform})` };
  }
  const bwrapPath = findOnPath('bwrap');
  if (!bwrapPath) {
    return { available: false, message: `${NOT_SANDBOXED}: bubblewrap (bwrap) is not installed; install the "bubblewrap" package` };
  }
  const base = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--unshare-net',
    '--unshare-pid',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
  ];
  const plain = tryBwrap(bwrapPath, [...base, 'true']);
  if (plain !== undefined)
    return { available: false, bwrapPath, message: `${NOT_SANDBOXED}: bubblewrap does not work here (${plain}); user namespaces may be disabled` };
  const filter = unixSocketFilter();
  // Fail open on the filter alone: a sandbox without it still confines files and the network, and
  // the message says what is missing (docs/security.md: what the sandbox does not isolate).
  const refused = filter ? tryBwrap(bwrapPath, [...base, '--seccomp', '3', 'true'], filter) : `no seccomp filter for the ${process.arch} architecture`;
  if (refused === undefined)
    return {
      available: true,
      bwrapPath,
      blocksUnixSockets: true,
      message: 'commands run in a bubblewrap sandbox (workspace writable, rest read-only, network off unless allowed, unix sockets blocked)',
    };
  return {
    available: true,
    bwrapPath,
    blocksUnixSockets: false,
    message: `commands run in a bubblewrap sandbox (workspace writable, rest read-only, network off unless allowed), but unix sockets are NOT blocked: ${refused}`,
  };
}

/** Undefined when bwrap ran `true`, else why not (its first line of error). */
function tryBwrap(bwrapPath: string, args: string[], program?: Buffer): string | undefined {
  const fd = program ? openProgramFd(program) : undefined;
  try {
    const r = spawnSync(bwrapPath, args, {
      timeout: 10_000,
      encoding: 'utf8',
      env: buildChildEnv().env,
      stdio: ['ignore', 'pipe', 'pipe', ...(fd === undefined ? [] : [fd])],
    });
    if (r.status === 0) return undefined;
    return (r.error?.message ?? r.stderr ?? '').trim().split('\n')[0] || `exit code ${r.status}`;
  } finally {
    closeProgramFd(fd);
  }
}
