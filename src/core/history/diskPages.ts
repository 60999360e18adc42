/**
 * A database file read a page at a time from disk instead of loaded whole into sql.js's in-memory
 * file system. sql.js ships no file-backed VFS and does not export its file system, but its
 * SQLite runs the ordinary unix VFS over a handful of system calls that the wasm imports from the
 * JavaScript side (open, read, write, seek, stat, fcntl...). Emscripten lets the loader supply the
 * wasm instance itself (`instantiateWasm`), so we wrap those imports: a file bound here is read
 * with `fs.readSync` at the offset SQLite asks for, and what SQLite writes to it stays in memory
 * as changed pages over the file (the file on disk is never written through this path; saving
 * remains the journal and the atomic fold of durableDb.ts). Memory is SQLite's page cache plus the
 * pages changed since the file was written, not the whole file.
 *
 * The import names are minified per sql.js build, so the table below belongs to one wasm binary
 * (checked by its hash). Any other build leaves paging off and the history reads files whole.
 */
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import type { FsLayer } from '../fs/fsLayer';

/** sha1 of node_modules/sql.js/dist/sql-wasm.wasm (sql.js 1.16.0), whose imports are named below. */
export const PAGED_WASM_SHA1 = 'a9052577677e8b6b56354e8f9ce16f11360de63d';
const SYSCALLS = {
  openat: 'x',
  fstat: 'g',
  stat: 'M',
  lstat: 'N',
  fstatat: 'L',
  fcntl: 'b',
  read: 't',
  write: 'q',
  seek: 'E',
  close: 'e',
  sync: 'K',
  truncate: 'J',
  fdstat: 'm',
  fchown: 'h',
  fchmod: 'j',
} as const;
const NEGATIVE_ERRNO = new Set<string>([SYSCALLS.fstat, SYSCALLS.fcntl, SYSCALLS.truncate, SYSCALLS.fchown, SYSCALLS.fchmod]);
const CHUNK = 4096;
const FIRST_FD = 1 << 20;
const EINVAL = 28;
const EIO = 29;
const S_IFREG_644 = 0o100644;

type Fn = (...args: never[]) => unknown;

/** One file on disk bound to a database name in sql.js's file system, with the pages written over it. */
class DiskFile {
  readonly changed = new Map<number, Buffer>();
  size: number;
  /** Bytes of the disk file still valid underneath (a truncate below it hides the rest). */
  diskLimit: number;
  refs = 0;

  constructor(
    private readonly fsx: FsLayer,
    readonly fd: number,
    diskSize: number,
    readonly ino: number,
  ) {
    this.size = diskSize;
    this.diskLimit = diskSize;
  }

  /** Copies `length` bytes at `pos` into `into` at `at`; returns how many there were. */
  read(into: Uint8Array, at: number, length: number, pos: number): number {
    const end = Math.min(pos + length, this.size);
    let p = pos;
    while (p < end) {
      const index = Math.floor(p / CHUNK);
      const chunkEnd = Math.min(end, (index + 1) * CHUNK);
      const page = this.changed.get(index);
      if (page) {
        into.set(page.subarray(p - index * CHUNK, chunkEnd - index * CHUNK), at + (p - pos));
        p = chunkEnd;
        continue;
      }
      // Unchanged chunks in a row are one read from disk.
      let runEnd = chunkEnd;
      while (runEnd < end && !this.changed.has(Math.floor(runEnd / CHUNK))) runEnd = Math.min(end, runEnd + CHUNK);
      this.readDisk(into, at + (p - pos), runEnd - p, p);
      p = runEnd;
    }
    return Math.max(0, end - pos);
  }

  write(from: Uint8Array, pos: number): void {
    let p = pos;
    const end = pos + from.length;
    while (p < end) {
      const index = Math.floor(p / CHUNK);
      const chunkEnd = Math.min(end, (index + 1) * CHUNK);
      let page = this.changed.get(index);
      if (!page) {
        page = Buffer.alloc(CHUNK);
        this.readDisk(page, 0, CHUNK, index * CHUNK);
        this.changed.set(index, page);
      }
      page.set(from.subarray(p - pos, chunkEnd - pos), p - index * CHUNK);
      p = chunkEnd;
    }
    this.size = Math.max(this.size, end);
  }

  truncate(length: number): void {
    for (const index of [...this.changed.keys()]) if (index * CHUNK >= length) this.changed.delete(index);
    const last = this.changed.get(Math.floor(length / CHUNK));
    last?.fill(0, length % CHUNK);
    this.diskLimit = Math.min(this.diskLimit, length);
    this.size = length;
  }

  /** Disk bytes where they are still valid, zeros past them. */
  private readDisk(into: Uint8Array, at: number, length: number, pos: number): void {
    const fromDisk = Math.max(0, Math.min(length, this.diskLimit - pos));
    let done = 0;
    while (done < fromDisk) {
      const n = this.fsx.readSync(this.fd, into, at + done, fromDisk - done, pos + done);
      if (n === 0) break;
      done += n;
    }
    into.fill(0, at + done, at + length);
  }

  changedBytes(): number {
    return this.changed.size * CHUNK;
  }

  /** The file as SQLite now sees it, 1 MiB at a time. */
  *contents(): Generator<Uint8Array> {
    for (let pos = 0; pos < this.size; pos += 1 << 20) {
      const part = Buffer.allocUnsafe(Math.min(1 << 20, this.size - pos));
      this.read(part, 0, part.length, pos);
      yield part;
    }
  }
}

interface OpenFd {
  file: DiskFile;
  pos: number;
}

let nextIno = 0x7000_0000;
let nextFd = FIRST_FD;
/** A file waiting for the next database open (bindNextOpen), then bound to the name sql.js gave it. */
let pending: DiskFile | undefined;
const byPath = new Map<string, DiskFile>();
const fds = new Map<number, OpenFd>();
let memory: WebAssembly.Memory | undefined;

const u8 = () => new Uint8Array(memory!.buffer);
const dv = () => new DataView(memory!.buffer);

function cString(ptr: number): string {
  const bytes = u8();
  let end = ptr;
  while (bytes[end] !== 0) end++;
  return Buffer.from(bytes.subarray(ptr, end)).toString('utf8');
}

function writeStat(buf: number, file: DiskFile): void {
  const view = dv();
  new Uint8Array(memory!.buffer, buf, 96).fill(0);
  view.setUint32(buf, 0x7070, true); // st_dev
  view.setUint32(buf + 4, S_IFREG_644, true);
  view.setUint32(buf + 8, 1, true); // st_nlink: SQLite warns about unlinked files
  view.setBigInt64(buf + 24, BigInt(file.size), true);
  view.setInt32(buf + 32, CHUNK, true);
  view.setInt32(buf + 36, Math.ceil(file.size / 512), true);
  view.setBigInt64(buf + 88, BigInt(file.ino), true);
}

/** Each iovec's (pointer, length) in wasm memory. */
function iovecs(iov: number, count: number): Array<[number, number]> {
  const view = dv();
  return Array.from({ length: count }, (_, i) => [view.getUint32(iov + i * 8, true), view.getUint32(iov + i * 8 + 4, true)] as [number, number]);
}

function pathOf(ptr: number): string {
  const p = cString(ptr);
  return p.startsWith('/') ? p : `/${p}`;
}

type PassOn = (name: string, args: unknown[]) => unknown;
type OnFd = (name: string, ours: (f: OpenFd, ...rest: never[]) => number) => Fn;

/** The wrapped calls: each serves our descriptors and paths, and passes everything else on unchanged. */
function wrappers(orig: Record<string, Fn>): Record<string, Fn> {
  const call: PassOn = (name, args) => (orig[name] as (...a: unknown[]) => unknown)(...args);
  const onFd: OnFd =
    (name, ours) =>
    (fd: number, ...rest: unknown[]) => {
      const open = fds.get(fd);
      if (!open) return call(name, [fd, ...rest]);
      try {
        return ours(open, ...(rest as never[]));
      } catch {
        // __syscall_* calls answer a negative errno, the WASI fd_* calls a positive one.
        return NEGATIVE_ERRNO.has(name) ? -EIO : EIO;
      }
    };
  const statByPath =
    (name: string, pathArg: number, bufArg: number) =>
    (...args: number[]) => {
      const file = byPath.get(pathOf(args[pathArg]!));
      if (!file) return call(name, args);
      writeStat(args[bufArg]!, file);
      return 0;
    };
  const S = SYSCALLS;
  return {
    [S.openat]: openAt(call),
    [S.fstat]: onFd(S.fstat, (f, buf: number) => (writeStat(buf, f.file), 0)),
    [S.stat]: statByPath(S.stat, 0, 1),
    [S.lstat]: statByPath(S.lstat, 0, 1),
    [S.fstatat]: statByPath(S.fstatat, 1, 2),
    ...fileIo(onFd),
  };
}

/** open(): our database file (or the one sql.js is about to open) gets a descriptor of ours. */
function openAt(call: PassOn): Fn {
  const S = SYSCALLS;
  return (dirfd: number, pathPtr: number, flags: number, varargs: number) => {
    const name = pathOf(pathPtr);
    const file = byPath.get(name) ?? (pending && /^\/dbfile_\d+$/.test(name) ? pending : undefined);
    if (!file) return call(S.openat, [dirfd, pathPtr, flags, varargs]);
    if (file === pending) {
      // sql.js unlinks its file name at close: an empty placeholder in its file system keeps that working.
      const placeholder = call(S.openat, [dirfd, pathPtr, flags, varargs]) as number;
      if (placeholder >= 0) call(S.close, [placeholder]);
      pending = undefined;
      byPath.set(name, file);
    }
    const fd = nextFd++;
    file.refs++;
    fds.set(fd, { file, pos: 0 });
    return fd;
  };
}

/** The calls on an open descriptor of ours: reads from the file's pages, writes kept in memory. */
function fileIo(onFd: OnFd): Record<string, Fn> {
  const S = SYSCALLS;
  return {
    [S.fcntl]: onFd(S.fcntl, (_f, cmd: number, varargs: number) => {
      if (cmd === 3) return 2; // F_GETFL: O_RDWR
      if (cmd === 12) dv().setInt16(dv().getUint32(varargs, true), 2, true); // F_GETLK: unlocked (our FileLock guards writers)
      return 0;
    }),
    [S.read]: onFd(S.read, (f, iov: number, count: number, pnum: number) => {
      let total = 0;
      for (const [ptr, len] of iovecs(iov, count)) {
        const n = f.file.read(u8(), ptr, len, f.pos);
        f.pos += n;
        total += n;
        if (n < len) break;
      }
      dv().setUint32(pnum, total, true);
      return 0;
    }),
    [S.write]: onFd(S.write, (f, iov: number, count: number, pnum: number) => {
      let total = 0;
      for (const [ptr, len] of iovecs(iov, count)) {
        f.file.write(u8().slice(ptr, ptr + len), f.pos);
        f.pos += len;
        total += len;
      }
      dv().setUint32(pnum, total, true);
      return 0;
    }),
    [S.seek]: onFd(S.seek, (f, offset: bigint, whence: number, out: number) => {
      const base = whence === 0 ? 0 : whence === 1 ? f.pos : whence === 2 ? f.file.size : NaN;
      const pos = base + Number(offset);
      if (!Number.isFinite(pos) || pos < 0) return EINVAL;
      f.pos = pos;
      dv().setBigInt64(out, BigInt(pos), true);
      return 0;
    }),
    [S.close]: onFd(S.close, (f) => {
      for (const [fd, open] of fds) if (open === f) fds.delete(fd);
      f.file.refs--;
      return 0;
    }),
    [S.sync]: onFd(S.sync, () => 0),
    [S.truncate]: onFd(S.truncate, (f, length: bigint) => (f.file.truncate(Number(length)), 0)),
    [S.fdstat]: onFd(S.fdstat, (_f, buf: number) => {
      new Uint8Array(memory!.buffer, buf, 24).fill(0);
      u8()[buf] = 4; // a regular file
      return 0;
    }),
    [S.fchown]: onFd(S.fchown, () => 0),
    [S.fchmod]: onFd(S.fchmod, () => 0),
  };
}

let enabled = false;

/**
 * sql.js's `instantiateWasm` hook: instantiates the wasm with the file calls wrapped when the
 * binary is the one the table was written for, as it is otherwise.
 */
export function pagedInstantiate(wasm: Buffer, onError: (err: unknown) => void) {
  return (imports: { a: Record<string, Fn> }, done: (instance: WebAssembly.Instance) => void): object => {
    const known = createHash('sha1').update(wasm).digest('hex') === PAGED_WASM_SHA1;
    const env = known ? { ...imports.a, ...wrappers(imports.a) } : imports.a;
    void WebAssembly.instantiate(new Uint8Array(wasm), { ...imports, a: env }).then(({ instance }) => {
      if (known) {
        memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
        // Windows may refuse to rename a fold over a file still open for reading (not tried there yet): read whole.
        enabled = memory !== undefined && process.platform !== 'win32';
      }
      done(instance);
    }, onError);
    return {};
  };
}

/** Whether databases can be opened a page at a time (the loaded sql.js is the build the table names). */
export function pagingAvailable(): boolean {
  return enabled;
}

/** A file on disk, ready to be bound to the next database sql.js opens. Close it when the database is closed. */
export interface PagedFile {
  /** The file as opened (one descriptor: later renames over the path do not change what is read). */
  readonly stat: BigIntStats;
  /** Bytes of the file on disk as opened, whatever was written over them. */
  readDisk(pos: number, length: number): Uint8Array;
  /** Bytes of pages written over the file in memory. */
  changedBytes(): number;
  /** The database as SQLite now sees it (the file with the changed pages), in parts: call between transactions. */
  contents(): Iterable<Uint8Array>;
  /** Makes the next `new SQL.Database()` read this file; returns what it built. */
  bind<T>(open: () => T): T;
  release(): void;
}

export function openPagedFile(fsx: FsLayer, file: string): PagedFile {
  if (!enabled) throw new Error('paged reading is not available with this sql.js build');
  const fd = fsx.openSync(file, 'r');
  let stat: BigIntStats;
  try {
    stat = fsx.fstatSync(fd, { bigint: true });
    if (stat.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
  } catch (err) {
    fsx.closeSync(fd);
    throw err;
  }
  const disk = new DiskFile(fsx, fd, Number(stat.size), nextIno++);
  const onDisk = new DiskFile(fsx, fd, Number(stat.size), 0);
  let released = false;
  return {
    stat,
    readDisk(pos: number, length: number): Uint8Array {
      const out = new Uint8Array(Math.max(0, Math.min(length, Number(stat.size) - pos)));
      onDisk.read(out, 0, out.length, pos);
      return out;
    },
    changedBytes: () => disk.changedBytes(),
    contents: () => disk.contents(),
    bind<T>(open: () => T): T {
      pending = disk;
      try {
        return open();
      } finally {
        pending = undefined;
      }
    },
    release(): void {
      if (released) return;
      released = true;
      for (const [name, f] of byPath) if (f === disk) byPath.delete(name);
      for (const [n, open] of fds) if (open.file === disk) fds.delete(n);
      disk.changed.clear();
      fsx.closeSync(fd);
    },
  };
}
