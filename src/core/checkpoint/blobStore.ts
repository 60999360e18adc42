/**
 * Content-addressed file contents under `.patchpilot/checkpoints/blobs/ab/<sha256>`: the same bytes
 * are stored once whatever path or step they belong to. Written with the repository's one atomic
 * writer, so a kill -9 leaves a blob whole or absent, never torn.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { removeConfined, writeFileConfined } from '../fs/confinedWrite';
import { TimeSlicer } from '../base/timeSlicer';

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class BlobStore {
  /** Bytes stored, counted once (a listing) and kept up to date by put and remove. */
  private total: number | undefined;

  /** `root`: the folder no link may be on the way from (the workspace); default the store's own folder. */
  constructor(
    readonly dir: string,
    private readonly root = dir,
  ) {}

  totalBytes(): number {
    return (this.total ??= this.list().reduce((n, b) => n + b.size, 0));
  }

  /** Counts the bytes stored, once, in slices: a stat per blob of a store of 100,000 would hold the main thread for seconds. */
  async measure(): Promise<void> {
    if (this.total !== undefined) return;
    const slicer = new TimeSlicer();
    let total = 0;
    for (const sub of safeReaddir(this.dir)) {
      for (const name of safeReaddir(path.join(this.dir, sub))) total += /^[0-9a-f]{64}$/.test(name) ? sizeOf(path.join(this.dir, sub, name)) : 0;
      await slicer.turn();
    }
    this.total ??= total;
  }

  private file(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  /** Stores the bytes (once); returns their hash and whether they were new. */
  put(bytes: Uint8Array): { hash: string; added: number } {
    const hash = hashBytes(bytes);
    const file = this.file(hash);
    if (existsSync(file)) return { hash, added: 0 };
    // Whole or absent after a kill -9; a blob lost to a power cut is found missing by a restore, which then refuses that file.
    writeFileConfined(this.root, file, bytes, { mode: 0o600, durable: false });
    if (this.total !== undefined) this.total += bytes.length;
    return { hash, added: bytes.length };
  }

  has(hash: string): boolean {
    return existsSync(this.file(hash));
  }

  get(hash: string): Buffer {
    return readFileSync(this.file(hash));
  }

  remove(hash: string): void {
    this.total = undefined;
    // Through the confined writer: no folder of the store on the way may be a link out of it.
    removeConfined(this.root, this.file(hash), 'non-folder');
  }

  /** Every stored blob with its size. */
  list(): { hash: string; size: number }[] {
    const out: { hash: string; size: number }[] = [];
    for (const sub of safeReaddir(this.dir)) {
      for (const name of safeReaddir(path.join(this.dir, sub))) {
        if (!/^[0-9a-f]{64}$/.test(name)) continue; // a temp file of a write killed midway
        try {
          out.push({ hash: name, size: statSync(path.join(this.dir, sub, name)).size });
        } catch {
          /* vanished */
        }
      }
    }
    return out;
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // vanished
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
