/**
 * Which process runs a run, and whether that process is still there. A run killed with SIGKILL, or
 * whose machine went down, never records its end: without this check it would stay "running" in
 * the history forever. On open the store marks such runs as interrupted.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { pidAlive } from './fileLock';
import type { RunOwner } from './ops';

/** A run we cannot check by its process (another machine, a database from an older version) counts as gone after this much silence. */
export const SILENT_RUN_STALE_MS = 24 * 60 * 60 * 1000;

let self: RunOwner | undefined;

export function currentOwner(): RunOwner {
  return (self ??= { host: hostname(), pid: process.pid, start: processStart(process.pid) });
}

/** Linux: field 22 of /proc/PID/stat (start time in clock ticks since boot), so a reused pid is told apart. Elsewhere null. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

export interface RunLiveness {
  owner: RunOwner | null;
  /** The run's last sign of life: its start or its latest step. */
  lastActivity: number;
}

/**
 * True when the run's process is certainly gone: on this machine, its pid is not alive, or belongs
 * to a process that started later (a reused pid). A run we cannot check that way (another machine,
 * no owner recorded) is gone once it has been silent for SILENT_RUN_STALE_MS.
 */
export function runIsOrphaned(run: RunLiveness, now: number, me: RunOwner = currentOwner()): boolean {
  const owner = run.owner;
  if (!owner || owner.host !== me.host) return now - run.lastActivity > SILENT_RUN_STALE_MS;
  if (owner.pid === me.pid) return owner.start !== null && me.start !== null && owner.start !== me.start;
  if (!pidAlive(owner.pid)) return true;
  const start = processStart(owner.pid);
  return owner.start !== null && start !== null && start !== owner.start;
}
