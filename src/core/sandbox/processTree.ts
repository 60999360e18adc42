import { readdirSync, readFileSync } from 'node:fs';

/**
 * The process table as /proc shows it (Linux only; elsewhere it is empty and callers fall back to
 * killing the process group). One reader for every question we ask about a command's processes:
 * its session, its descendants, the marker in its environment.
 */
export interface ProcInfo {
  pid: number;
  ppid: number;
  /** Session id (/proc/<pid>/stat field 6): kept across fork and double fork, changed only by setsid(). */
  sid: number;
  /** Start time in clock ticks since boot (field 22): tells a reused pid from the process we saw. */
  start: string;
  zombie: boolean;
}

export function listProcesses(): ProcInfo[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const info = readProc(Number(e));
    if (info) out.push(info);
  }
  return out;
}

export function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name may contain spaces and parentheses: fields start after the last ')', at field 3 (state).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(f[1]), sid: Number(f[3]), start: f[19] ?? '', zombie: f[0] === 'Z' || f[0] === 'X' };
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Whether the process's initial environment holds `NAME=value` (unreadable: another user's process, or gone). */
export function environHas(pid: number, entry: string): boolean {
  try {
    // Entries are NUL-terminated; a leading NUL lets the first entry match like the others.
    return Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]).includes(Buffer.from(`\0${entry}\0`));
  } catch {
    return false;
  }
}

/** Every process below the given roots in `procs`. A process that called setsid() is still found while its parent lives. */
export function descendantsOf(procs: readonly ProcInfo[], roots: Iterable<number>): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) {
    const list = children.get(p.ppid) ?? [];
    list.push(p);
    children.set(p.ppid, list);
  }
  const out: ProcInfo[] = [];
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      out.push(c);
      stack.push(c.pid);
    }
  }
  return out;
}
