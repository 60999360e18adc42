/**
 * A command's whole output, with bounded memory: the first `memoryBytes` stay in memory; past them,
 * everything goes to a temporary file (0600, in a private folder) until `spillLimitBytes`, and the
 * file is read back once when the command is over and deleted. So the test summary parsers read every
 * line (a `not ok` in the middle of 6,000 lines of passing noise is found), and the tool result whose
 * whole text is kept for read_file (context/outputKeeper.ts) is truly whole (issue 30, item 3).
 *
 * Past the spill limit (a command that prints without end), the rest is not kept except its last
 * `memoryBytes / 2`, and the text says in words how much was left out between them and why.
 */
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Kept per stream, on disk, before the rest is dropped (the text is read into memory once, at the end). */
export const SPILL_LIMIT_BYTES = 64 * 1024 * 1024;

export class CappedOutput {
  private memory: Buffer[] = [];
  private memoryUsed = 0;
  private spill?: { dir: string; fd: number };
  private kept = 0;
  private total = 0;
  /** The end of the output past the spill limit, at most tailCap bytes. */
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private readonly tailCap: number;
  private done?: string;

  constructor(
    private readonly memoryBytes: number,
    private readonly spillLimitBytes = Math.max(SPILL_LIMIT_BYTES, memoryBytes),
  ) {
    if (!Number.isFinite(memoryBytes) || memoryBytes < 0) throw new RangeError(`maxOutputBytes must be a non-negative number, got ${memoryBytes}`);
    if (!(spillLimitBytes >= memoryBytes)) throw new RangeError(`the spill limit (${spillLimitBytes}) must be at least the memory cap (${memoryBytes})`);
    this.tailCap = Math.floor(memoryBytes / 2);
  }

  push(chunk: Buffer): void {
    if (this.done !== undefined) throw new Error('output pushed after it was read');
    this.total += chunk.length;
    const room = this.spillLimitBytes - this.kept;
    const keep = chunk.length <= room ? chunk : chunk.subarray(0, room);
    if (keep.length) this.keep(keep);
    if (keep.length < chunk.length) this.keepTail(chunk.subarray(keep.length));
  }

  /** Bytes in neither the kept text nor its tail (past the spill limit). */
  get droppedBytes(): number {
    return this.total - this.kept - Math.min(this.tailBytes, this.tailCap);
  }

  /** The temporary file while the output is spilled (undefined in memory, and once read). */
  get spillFile(): string | undefined {
    return this.spill && path.join(this.spill.dir, 'output');
  }

  get totalBytes(): number {
    return this.total;
  }

  /** The whole output (or what the spill limit kept, its end, and a note between them); the temporary file is gone after. */
  text(): string {
    if (this.done !== undefined) return this.done;
    let body: string;
    try {
      body = this.spill ? this.readSpill() : Buffer.concat(this.memory).toString('utf8');
    } finally {
      this.discard();
    }
    const dropped = this.droppedBytes;
    if (dropped > 0) {
      let tail = Buffer.concat(this.tail);
      if (tail.length > this.tailCap) tail = tail.subarray(tail.length - this.tailCap);
      const limit = `${Math.round(this.spillLimitBytes / (1024 * 1024))} MiB`;
      // The first line's shape is what the runners' parsers know a cut by (testRuns/runners/tap.ts).
      body = `${body}\n[... ${dropped} bytes dropped ...]\n[the output passed ${limit}: its first ${limit} and its last ${tail.length} bytes are kept]\n${tail.toString('utf8')}`;
    }
    this.tail = [];
    this.done = body;
    return body;
  }

  /** Deletes the temporary file (a command that could not start); text() does it itself. */
  discard(): void {
    if (!this.spill) return;
    const { dir, fd } = this.spill;
    this.spill = undefined;
    try {
      fs.closeSync(fd);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    this.memory = [];
    this.memoryUsed = 0;
  }

  private keep(chunk: Buffer): void {
    this.kept += chunk.length;
    if (!this.spill && this.memoryUsed + chunk.length <= this.memoryBytes) {
      this.memory.push(chunk);
      this.memoryUsed += chunk.length;
      return;
    }
    if (!this.spill) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-output-'));
      this.spill = { dir, fd: fs.openSync(path.join(dir, 'output'), 'wx+', 0o600) };
      for (const b of this.memory) writeAll(this.spill.fd, b);
      this.memory = [];
      this.memoryUsed = 0;
    }
    writeAll(this.spill.fd, chunk);
  }

  private keepTail(chunk: Buffer): void {
    if (this.tailCap === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= this.tailCap) this.tailBytes -= this.tail.shift()!.length;
  }

  private readSpill(): string {
    const { fd } = this.spill!;
    const bytes = Buffer.allocUnsafe(this.kept);
    let at = 0;
    while (at < bytes.length) {
      const n = fs.readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return bytes.subarray(0, at).toString('utf8');
  }
}

function writeAll(fd: number, chunk: Buffer): void {
  let at = 0;
  while (at < chunk.length) at += fs.writeSync(fd, chunk, at, chunk.length - at);
}
