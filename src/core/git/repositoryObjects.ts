/**
 * Workspace files whose bytes are already in the repository's object store: tracked, unchanged since
 * the index recorded them (git compares the stat data it keeps, and the bytes when that is racy), and
 * of the object's very size (a conversion, `text`/`eol`/CRLF, `ident`, an LFS or other filter, makes
 * the working file differ from the object, and changes its size). A checkpoint keeps a reference to
 * such a file instead of a copy, and reads the object back only when a step changes the file.
 */
import { SafeGit } from './safeGit';

/** A regular file or a symbolic link at stage 0 (a submodule, `160000`, or a conflict is left out). */
const KEPT_MODES = new Set(['100644', '100755', '120000']);

interface ObjectStore {
  /**
   * Of these paths (with their sizes on disk, taken before this call: a change after that is the change
   * feed's to see), those whose bytes are the object the index names, with its id.
   */
  unchanged(sizes: ReadonlyMap<string, number>, signal?: AbortSignal): Promise<Map<string, string>>;
  /** The objects' bytes; an id git does not have is left out. */
  read(ids: readonly string[]): Promise<Map<string, Buffer>>;
}

/** The repository of `root` (git opened again for each call: config changed meanwhile is read again). */
export function repositoryObjects(root: string): ObjectStore {
  const open = async (signal?: AbortSignal) => {
    const opened = await SafeGit.open(root, signal);
    if (opened.kind !== 'repo') throw new Error(opened.kind === 'refused' ? opened.reason : 'no repository');
    return opened.git;
  };
  return {
    async unchanged(sizes, signal) {
      const git = await open(signal);
      const modified = new Set((await git.run('ls-files', ['-z', '--modified'])).split('\0'));
      const candidates = new Map<string, string>();
      for (const record of (await git.run('ls-files', ['-z', '--stage'])).split('\0')) {
        const tab = record.indexOf('\t');
        if (tab < 0) continue;
        const [mode, id, stage] = record.slice(0, tab).split(' ');
        const rel = record.slice(tab + 1);
        if (stage === '0' && KEPT_MODES.has(mode!) && sizes.has(rel) && !modified.has(rel)) candidates.set(rel, id!);
      }
      const objectSizes = parseSizes(await git.catFile('--batch-check=%(objectname) %(objectsize)', [...new Set(candidates.values())]));
      const out = new Map<string, string>();
      for (const [rel, id] of candidates) if (objectSizes.get(id) === sizes.get(rel)) out.set(rel, id);
      return out;
    },
    async read(ids) {
      if (ids.length === 0) return new Map();
      return parseBatch(await (await open()).catFile('--batch', ids));
    },
  };
}

function parseSizes(text: Buffer): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.toString('latin1').split('\n')) {
    const [id, size] = line.split(' ');
    if (id && size && /^\d+$/.test(size)) out.set(id, Number(size));
  }
  return out;
}

/** `<id> <type> <size>\n<bytes>\n` per object, `<id> missing\n` for an unknown one. */
function parseBatch(out: Buffer): Map<string, Buffer> {
  const objects = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(0x0a, at);
    if (nl < 0) break;
    const [id, type, size] = out.subarray(at, nl).toString('latin1').split(' ');
    at = nl + 1;
    if (!size || !/^\d+$/.test(size)) continue; // missing
    const end = at + Number(size);
    if (type === 'blob') objects.set(id!, Buffer.from(out.subarray(at, end)));
    at = end + 1;
  }
  return objects;
}
