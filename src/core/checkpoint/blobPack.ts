/**
 * Many small blobs in one file, `blobs/packs/<name>.pack`, compressed where that saves: a first
 * checkpoint keeps thousands of small files, and one file of its own per blob cost a 4 KiB block and
 * an inode each (the store was 2-3x the size of a shadow git's packed objects). Written once, atomically
 * (whole or absent after a kill -9), never appended to; a pack loses entries only by being rewritten
 * without them (pruning). Layout: the entries' stored bytes, then a JSON index of them, then the
 * index's length (uint32 BE) and the magic `PPK1`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { writeFileConfined } from '../fs/confinedWrite';

const MAGIC = 'PPK1';

export interface PackEntry {
  hash: string;
  offset: number;
  /** Bytes in the pack (compressed or not). */
  stored: number;
  /** Bytes of the blob itself. */
  size: number;
  deflated: boolean;
}

/** A blob as a pack stores it: compressed where that saves an eighth, else as it is. */
export interface PackedBlob {
  stored: Uint8Array;
  size: number;
  deflated: boolean;
}

/**
 * Compresses one blob for a pack. Done per blob as it is put (inside the capture's sliced loop), not
 * per pack: deflating a whole 32 MB batch at once held the main thread for seconds.
 */
export function packBlob(bytes: Uint8Array): PackedBlob {
  const deflated = bytes.length >= 64 ? deflateRawSync(bytes, { level: 1 }) : undefined;
  // Kept compressed only where that saves an eighth: binaries and small files are stored as they are.
  const keep = deflated !== undefined && deflated.length < bytes.length - bytes.length / 8;
  return keep ? { stored: deflated, size: bytes.length, deflated: true } : { stored: bytes, size: bytes.length, deflated: false };
}

/** A packed blob's bytes. */
export function unpackBlob(blob: PackedBlob): Buffer {
  return blob.deflated ? inflateRawSync(blob.stored) : Buffer.from(blob.stored);
}

/** Writes the blobs (packBlob's form) as one pack at `file`; returns their entries. */
export function writePack(root: string, file: string, blobs: ReadonlyMap<string, PackedBlob>): PackEntry[] {
  const parts: Uint8Array[] = [];
  const entries: PackEntry[] = [];
  let offset = 0;
  for (const [hash, blob] of blobs) {
    parts.push(blob.stored);
    entries.push({ hash, offset, stored: blob.stored.length, size: blob.size, deflated: blob.deflated });
    offset += blob.stored.length;
  }
  const index = Buffer.from(JSON.stringify(entries.map((e) => [e.hash, e.offset, e.stored, e.size, e.deflated ? 1 : 0])));
  const tail = Buffer.alloc(8);
  tail.writeUInt32BE(index.length, 0);
  tail.write(MAGIC, 4, 'latin1');
  writeFileConfined(root, file, Buffer.concat([...parts, index, tail]), { mode: 0o600, durable: false });
  return entries;
}

/** A pack's entries; [] for a file that is not a whole pack (it is then ignored, its blobs found missing). */
export function readPackIndex(file: string): PackEntry[] {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const length = fstatSync(fd).size;
    if (length < 8) return [];
    const tail = readAt(fd, length - 8, 8);
    if (tail.toString('latin1', 4) !== MAGIC) return [];
    const indexLength = tail.readUInt32BE(0);
    if (indexLength > length - 8) return [];
    const rows = JSON.parse(readAt(fd, length - 8 - indexLength, indexLength).toString('utf8')) as [string, number, number, number, number][];
    return rows.map(([hash, offset, stored, size, deflated]) => ({ hash, offset, stored, size, deflated: deflated === 1 }));
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** One blob's bytes out of its pack. */
export function readPacked(file: string, entry: PackEntry): Buffer {
  const fd = openSync(file, 'r');
  try {
    return unpackBlob({ stored: readAt(fd, entry.offset, entry.stored), size: entry.size, deflated: entry.deflated });
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, position + done);
    if (n === 0) throw new Error('a pack shorter than its index says');
    done += n;
  }
  return out;
}
