import { keyAt, type Level } from './normalize';

/**
 * The lines of one file with lazily built per-level key arrays and key -> line-number maps, so a
 * hunk is located by hashing its rarest line and extending from each hit, not by scanning the
 * whole file for every hunk.
 */
export class FileIndex {
  private readonly keyCache = new Map<Level, string[]>();
  private readonly posCache = new Map<Level, Map<string, number[]>>();

  constructor(readonly lines: readonly string[]) {}

  get length(): number {
    return this.lines.length;
  }

  keys(level: Level): string[] {
    let keys = this.keyCache.get(level);
    if (!keys) {
      keys = level === 'exact' ? (this.lines as string[]) : this.lines.map((l) => keyAt(level, l));
      this.keyCache.set(level, keys);
    }
    return keys;
  }

  private readonly exactHits = new Map<string, number[]>();

  /** 0-based line numbers whose key at `level` equals `key` (ascending). */
  positions(level: Level, key: string): readonly number[] {
    if (level === 'exact') return this.exactPositions(key);
    let map = this.posCache.get(level);
    if (!map) {
      map = new Map();
      const keys = this.keys(level);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const list = map.get(k);
        if (list) list.push(i);
        else map.set(k, [i]);
      }
      this.posCache.set(level, map);
    }
    return map.get(key) ?? EMPTY;
  }

  /**
   * Exact lookups scan with a length pre-check instead of hashing every line of the file: most
   * patches match exactly and need only a handful of keys, so this is the fast path.
   */
  private exactPositions(key: string): readonly number[] {
    let hits = this.exactHits.get(key);
    if (!hits) {
      hits = [];
      const len = key.length;
      const lines = this.lines;
      for (let i = 0; i < lines.length; i++) {
        const l = lines[i]!;
        if (l.length === len && l === key) hits.push(i);
      }
      this.exactHits.set(key, hits);
    }
    return hits;
  }
}

const EMPTY: readonly number[] = [];
