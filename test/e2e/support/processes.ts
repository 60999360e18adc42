// Process-tree cleanup for the real-VS-Code tests: code-server forks an extension host, a pty host
// and file watchers, and the pty host's shells call setsid (so a process group kill misses them).
// We walk /proc by parent pid instead and kill every descendant, then the root.
//
//   descendants(pid)          every live descendant pid of `pid` (Linux /proc; [] elsewhere)
//   killTree(pid, graceMs?)   SIGTERM the tree, wait up to graceMs, SIGKILL what is left; resolves when gone
//   trackForExit(pid)         kill this tree synchronously if the test process exits first; returns an untrack fn
//   alive(pid)                whether a pid still exists (and is not a zombie)
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may contain spaces and parentheses; split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[1]);
  } catch {
    return undefined;
  }
}

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

export function descendants(root: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

export async function killTree(root: number, graceMs = 5000): Promise<void> {
  // Collect first: once the root dies its children are re-parented and the tree is lost.
  const seen = new Set<number>([root, ...descendants(root)]);
  signalAll([...seen].reverse(), 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    for (const pid of [...seen]) for (const d of descendants(pid)) seen.add(d);
    if (![...seen].some(alive)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const pid of [...seen]) for (const d of descendants(pid)) seen.add(d);
  signalAll([...seen], 'SIGKILL');
  const killDeadline = Date.now() + 5000;
  while ([...seen].some(alive) && Date.now() < killDeadline) await new Promise((r) => setTimeout(r, 50));
}

const tracked = new Set<number>();
let hooked = false;
function killTrackedSync(): void {
  for (const root of tracked) signalAll([root, ...descendants(root)], 'SIGKILL');
  tracked.clear();
}

export function trackForExit(pid: number): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', killTrackedSync);
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => {
        killTrackedSync();
        process.kill(process.pid, sig);
      });
    }
  }
  tracked.add(pid);
  return () => tracked.delete(pid);
}
