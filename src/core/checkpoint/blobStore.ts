/**
 * Content-addressed file contents under `.patchpilot/checkpoints/blobs/ab/<sha256>`: the same bytes
 * are stored once whatever path or step they belong to. Written with the repository's one atomic
 * writer, so a kill -9 leaves a blob whole or absent, never torn. A capture that keeps many blobs
 * (a first checkpoint) batches them: the small ones go into one compressed pack (blobPack.ts).
 */
import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { removeConfined, writeFileConfined } from '../fs/confinedWrite';
import { TimeSlicer } from '../base/timeSlicer';
import { packBlob, readPackIndex, readPacked, unpackBlob, writePack, type PackEntry, type PackedBlob } from './blobPack';

/** Blobs up to this size are packed in a batch; larger ones gain nothing from sharing a file. */
const PACKED_MAX = 256 * 1024;
/** A batch with fewer new small blobs writes them as files of their own (a step's few): no pack per step. */
const PACK_MIN_COUNT = 32;
/** A pack is written when its batch holds this much: memory stays bounded on a first checkpoint of any size. */
const PACK_BYTES = 32 * 1024 * 1024;

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class BlobStore {
  /** Bytes stored, counted once (a listing) and kept up to date by put and remove. */
  private total: number | undefined;
  /** Packed blobs by hash, with their pack (read once, on first need). */
  private packedCache: Map<string, { file: string; entry: PackEntry }> | undefined;
  /** A batch's small new blobs, compressed as a pack keeps them, not written yet (startBatch .. endBatch). */
  private pending: Map<string, PackedBlob> | undefined;
  private pendingBytes = 0;
  /** The packs folder's mtime when they were read: another process's new pack is read on a miss. */
  private packsSeen = 0;

  /** `root`: the folder no link may be on the way from (the workspace); default the store's own folder. */
  constructor(
    readonly dir: string,
    private readonly root = dir,
  ) {}

  private get packsDir(): string {
    return path.join(this.dir, 'packs');
  }

  private get packed(): Map<string, { file: string; entry: PackEntry }> {
    if (this.packedCache) return this.packedCache;
    this.packsSeen = mtimeOf(this.packsDir);
    const packed = new Map<string, { file: string; entry: PackEntry }>();
    for (const name of safeReaddir(this.packsDir).filter((n) => n.endsWith('.pack'))) {
      const file = path.join(this.packsDir, name);
      for (const entry of readPackIndex(file)) packed.set(entry.hash, { file, entry });
    }
    return (this.packedCache = packed);
  }

  /** The packs again when their folder changed since they were read (another process wrote or pruned one). */
  private packedSince(): Map<string, { file: string; entry: PackEntry }> {
    if (mtimeOf(this.packsDir) !== this.packsSeen) this.packedCache = undefined;
    return this.packed;
  }

  /** From here to endBatch, small new blobs are held and written together (kept readable meanwhile). */
  startBatch(): void {
    this.pending ??= new Map();
  }

  /** Writes the batch: one pack when it is large enough, else each blob as a file of its own. */
  endBatch(): void {
    this.writePending(PACK_MIN_COUNT);
    this.pending = undefined;
  }

  private writePending(minCount: number): void {
    const pending = this.pending;
    if (!pending || pending.size === 0) return;
    if (pending.size >= minCount) this.addPack(pending);
    else for (const [hash, blob] of pending) this.writeLoose(hash, unpackBlob(blob));
    pending.clear();
    this.pendingBytes = 0;
  }

  private addPack(blobs: ReadonlyMap<string, PackedBlob>): void {
    const file = path.join(this.packsDir, `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}.pack`);
    const entries = writePack(this.root, file, blobs);
    for (const entry of entries) this.packed.set(entry.hash, { file, entry });
    if (this.total !== undefined) this.total += entries.reduce((n, e) => n + e.stored, 0);
  }

  private writeLoose(hash: string, bytes: Uint8Array): void {
    // Whole or absent after a kill -9; a blob lost to a power cut is found missing by a restore, which then refuses that file.
    writeFileConfined(this.root, this.file(hash), bytes, { mode: 0o600, durable: false });
    if (this.total !== undefined) this.total += bytes.length;
  }

  totalBytes(): number {
    return (this.total ??= this.list().reduce((n, b) => n + b.size, 0));
  }

  /** Counts the bytes stored, once, in slices: a stat per blob of a store of 100,000 would hold the main thread for seconds. */
  async measure(): Promise<void> {
    if (this.total !== undefined) return;
    const slicer = new TimeSlicer();
    let total = [...this.packed.values()].reduce((n, p) => n + p.entry.stored, 0);
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
    if (this.has(hash)) return { hash, added: 0 };
    if (this.pending && bytes.length <= PACKED_MAX) {
      const packed = packBlob(bytes);
      this.pending.set(hash, packed);
      this.pendingBytes += packed.stored.length;
      if (this.pendingBytes >= PACK_BYTES) this.writePending(1);
    } else this.writeLoose(hash, bytes);
    return { hash, added: bytes.length };
  }

  has(hash: string): boolean {
    return this.pending?.has(hash) === true || this.packed.has(hash) || existsSync(this.file(hash)) || this.packedSince().has(hash);
  }

  get(hash: string): Buffer {
    const pending = this.pending?.get(hash);
    if (pending) return unpackBlob(pending);
    const packed = this.packed.get(hash) ?? (existsSync(this.file(hash)) ? undefined : this.packedSince().get(hash));
    return packed ? readPacked(packed.file, packed.entry) : readFileSync(this.file(hash));
  }

  /** Removes these blobs: files of their own go, a pack holding some is written again without them (once). */
  removeAll(hashes: Iterable<string>): void {
    this.total = undefined;
    const packs = new Map<string, Set<string>>();
    for (const hash of hashes) {
      const packed = this.packed.get(hash);
      if (packed) packs.set(packed.file, (packs.get(packed.file) ?? new Set()).add(hash));
      // Through the confined writer: no folder of the store on the way may be a link out of it.
      else removeConfined(this.root, this.file(hash), 'non-folder');
    }
    for (const [file, dropped] of packs) {
      const kept = new Map<string, PackedBlob>();
      for (const [hash, p] of this.packed) if (p.file === file && !dropped.has(hash)) kept.set(hash, packBlob(readPacked(file, p.entry)));
      for (const [hash, p] of [...this.packed]) if (p.file === file) this.packed.delete(hash);
      // The new pack first: a kill -9 between the two leaves blobs twice, never lost.
      if (kept.size > 0) this.addPack(kept);
      removeConfined(this.root, file, 'non-folder');
    }
  }

  /** Every stored blob with its size (a packed one: its bytes in the pack). */
  list(): { hash: string; size: number }[] {
    const out: { hash: string; size: number }[] = [...this.packed.values()].map((p) => ({ hash: p.entry.hash, size: p.entry.stored }));
    for (const sub of safeReaddir(this.dir)) {
      if (sub === 'packs') continue;
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

function mtimeOf(dir: string): number {
  try {
    return statSync(dir).mtimeMs;
  } catch {
    return 0;
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
