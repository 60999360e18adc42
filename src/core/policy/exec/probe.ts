import { spawnSync } from 'node:child_process';
import { buildChildEnv } from './childEnv';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Whether commands can run inside bubblewrap here, and if not, a sentence saying why. */
export interface SandboxStatus {
  available: boolean;
  /** For the UI/CLI: "commands run in a sandbox ..." or "commands are not sandboxed: ...". */
  message: string;
  bwrapPath?: string;
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
  const r = spawnSync(
    bwrapPath,
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-net', '--unshare-pid',
      '--die-with-parent', '--cap-drop', 'ALL', 'true'],
    { timeout: 10_000, encoding: 'utf8', env: buildChildEnv().env },
  );
  if (r.status === 0) return { available: true, bwrapPath, message: 'commands run in a bubblewrap sandbox (workspace writable, rest read-only, network off unless allowed)' };
  const why = (r.error?.message ?? r.stderr ?? '').trim().split('\n')[0] || `exit code ${r.status}`;
  return { available: false, bwrapPath, message: `${NOT_SANDBOXED}: bubblewrap does not work here (${why}); user namespaces may be disabled` };
}
