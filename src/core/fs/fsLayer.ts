/**
 * The synchronous file operations of the atomic writer and the history store, as an injectable
 * object: tests replace single calls (a rename that fails with EBUSY, a write that hits ENOSPC) to
 * exercise failures that root cannot provoke with chmod. Production uses node:fs as is.
 */
import * as fs from 'node:fs';

export type FsLayer = Pick<
  typeof fs,
  | 'openSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'fchmodSync'
  | 'closeSync'
  | 'renameSync'
  | 'unlinkSync'
  | 'linkSync'
  | 'copyFileSync'
  | 'readFileSync'
  | 'readSync'
  | 'writeFileSync'
  | 'statSync'
  | 'mkdirSync'
  | 'utimesSync'
  | 'existsSync'
  | 'readdirSync'
  | 'fstatSync'
  | 'lstatSync'
>;

export const nodeFs: FsLayer = fs;

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/** Blocks the calling thread; used between retries inside the store's worker, where blocking is harmless. */
export function sleepSync(ms: number): void {
  if (ms <= 0) return;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
