import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { unixSocketFilter } from './seccompFilter';

/** What a sandboxed command gets for unix sockets: the seccomp program, or mounts that mask the sockets we know of. */
export interface UnixSocketRules {
  /** The program for `bwrap --seccomp` (refuses every `socket(AF_UNIX)`); undefined when lifted or unsupported. */
  seccomp?: Buffer;
  /** bwrap arguments: allowlisted sockets bound back, every other known socket masked. */
  mounts: string[];
}

/** Folders the sandbox already replaces with fresh ones (bwrapArgs.ts): sockets there need no mask. */
const REPLACED = ['/tmp', '/run', '/var/run', '/dev', '/proc'];
/** Enough for any real host; a bound on the argument list if /proc/net/unix is flooded. */
const MAX_MASKS = 4096;

/**
 * seccomp cannot see the path a `connect()` names, so the allowlist (`patchpilot.sandbox.allowUnixSockets`,
 * user settings only) cannot be one more rule in the filter. With a non-empty allowlist the filter
 * is lifted for that user's commands, the allowed sockets are bound back into the sandbox (they may
 * sit under the hidden /run, /tmp or home), and every other socket the host has bound a path for
 * (/proc/net/unix) is covered by /dev/null. Masks are best effort, as docs/security.md
 * says: a socket bound after the command starts, or in another network namespace, is not listed.
 * The same masks apply when the filter is unavailable (an unknown architecture, a bwrap that refused it).
 */
export function unixSocketRules(options: { filterWorks: boolean; allow: readonly string[]; procNetUnix?: string }): UnixSocketRules {
  const allowed = new Set(options.allow.map((p) => realpathOr(path.resolve(p))));
  const seccomp = options.filterWorks && allowed.size === 0 ? unixSocketFilter() : undefined;
  if (seccomp) return { seccomp, mounts: [] };
  const mounts: string[] = [];
  for (const socket of allowed) if (isSocket(socket)) mounts.push('--bind', socket, socket);
  let masks = 0;
  for (const socket of boundSocketPaths(options.procNetUnix)) {
    if (masks >= MAX_MASKS) break;
    if (allowed.has(socket) || REPLACED.some((dir) => socket === dir || socket.startsWith(dir + '/')) || !isSocket(socket)) continue;
    mounts.push('--ro-bind', '/dev/null', socket);
    masks++;
  }
  return { mounts };
}

/** Absolute paths of the unix sockets bound in this network namespace (abstract ones start with @ and are skipped). */
export function boundSocketPaths(procNetUnix = '/proc/net/unix'): string[] {
  let text: string;
  try {
    text = readFileSync(procNetUnix, 'utf8');
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    const m = /^\S+:\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s(.+)$/.exec(line);
    const p = m?.[1];
    if (p && p.startsWith('/')) out.add(realpathOr(p));
  }
  return [...out];
}

function isSocket(p: string): boolean {
  try {
    return lstatSync(p).isSocket();
  } catch {
    return false;
  }
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
