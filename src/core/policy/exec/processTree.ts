import { readdirSync, readFileSync } from 'node:fs';

/**
 * Every process below `rootPid`, found through /proc (Linux). A process that called setsid() has
 * left our process group, so killing the group alone would miss it.
 */
export function descendants(rootPid: number): number[] {
  if (process.platform !== 'linux') return [];
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      // The name may contain spaces and parentheses: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e));
      children.set(ppid, list);
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const stack = [rootPid];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/** Signal the process group and every known descendant; errors (already gone) are ignored. */
export function signalTree(pgid: number, extra: readonly number[], signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* group already gone */
  }
  for (const pid of extra) {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}
