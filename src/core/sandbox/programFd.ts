import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A readable file descriptor holding `bytes` from its start, for a child that reads a program from an
 * inherited fd (bwrap's `--seccomp 3`). A temp file, unlinked at once, serves both spawn and
 * spawnSync (a pipe would need an async writer). The caller closes it once the child is spawned.
 */
export function openProgramFd(bytes: Buffer): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'patchpilot-seccomp-'));
  try {
    const file = path.join(dir, 'filter.bpf');
    writeFileSync(file, bytes, { mode: 0o600 });
    return openSync(file, 'r');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function closeProgramFd(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
}
