import { AnchorSearch } from './anchorSearch';
import { keyAt, type Level } from './normalize';

/**
 * How many file lines the engine looked at (keyed, scanned, hashed, compared) while placing a
 * patch: its cost as a count, so a test can hold the engine to linear work without timing it.
 */
export class LineWork {
  lines = 0;
}

/**
 * The lines of one file with lazily built per-level key arrays and key -> line-number maps, so a
 * hunk is located by hashing its rarest line and extending from each hit, not by scanning the
 * whole file for every hunk.
 */
export class FileIndex {
  private readonly keyCache = new Map<Level, string[]>();
  private readonly posCache = new Map<Level, PositionMap>();

  constructor(
    readonly lines: readonly string[],
    /** Where the lines looked at are counted (a patch's files may share one). */
    readonly work: LineWork = new LineWork(),
  ) {}

  get length(): number {
    return this.lines.length;
  }

  keys(level: Level): string[] {
    let keys = this.keyCache.get(level);
    if (!keys) {
      if (level !== 'exact') this.work.lines += this.lines.length;
      keys = level === 'exact' ? (this.lines as string[]) : this.lines.map((l) => keyAt(level, l));
      this.keyCache.set(level, keys);
    }
    return keys;
  }

  private readonly exactHits = new Map<string, number[]>();
  /** Exact text -> line numbers, built once scanning has cost about as much as building it. */
  private exactMap: PositionMap | undefined;
  private scansLeft = SCANS_BEFORE_HASHING;

  /** 0-based line numbers whose key at `level` equals `key` (ascending). */
  positions(level: Level, key: string): readonly number[] {
    if (level === 'exact') return this.exactPositions(key);
    return this.positionMap(level).get(key);
  }

  private positionMap(level: Exclude<Level, 'exact'>): PositionMap {
    let map = this.posCache.get(level);
    if (!map) {
      map = new PositionMap(this.keys(level));
      this.work.lines += this.lines.length;
      this.posCache.set(level, map);
    }
    return map;
  }

  private anchorSearch: AnchorSearch | undefined;

  /** Anchor lines (`@@ heading`) looked up on indentation-level keys; see AnchorSearch. */
  get anchors(): AnchorSearch {
    this.anchorSearch ??= new AnchorSearch(this.keys('indentation'), () => this.positionMap('indentation'), this.work);
    return this.anchorSearch;
  }

  /**
   * Most patches match exactly and need only a handful of keys, so the first few exact lookups
   * scan with a length pre-check instead of hashing every line. A patch with many hunks then
   * switches to a map built once, so its cost grows with hunks + lines, not hunks x lines
   * (test/unit/patch/apply/scaling.test.ts).
   */
  private exactPositions(key: string): readonly number[] {
    if (this.exactMap) return this.exactMap.get(key);
    let hits = this.exactHits.get(key);
    if (hits) return hits;
    if (this.scansLeft-- <= 0) {
      this.exactMap = new PositionMap(this.lines);
      this.work.lines += this.lines.length;
      this.exactHits.clear();
      return this.exactMap.get(key);
    }
    hits = [];
    this.work.lines += this.lines.length;
    const len = key.length;
    const lines = this.lines;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.length === len && l === key) hits.push(i);
    }
    this.exactHits.set(key, hits);
    return hits;
  }
}

/** Distinct exact lookups answered by scanning before the file is hashed once. */
const SCANS_BEFORE_HASHING = 16;

/**
 * Key -> its 0-based lines, ascending. A key on one line only (most lines of a source file) is
 * stored as the number itself: a 400,000-line file would otherwise allocate 400,000 arrays.
 */
export class PositionMap {
  private readonly map = new Map<string, number | number[]>();

  constructor(keys: readonly string[]) {
    const map = this.map;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const prev = map.get(k);
      if (prev === undefined) map.set(k, i);
      else if (typeof prev === 'number') map.set(k, [prev, i]);
      else prev.push(i);
    }
  }

  get(key: string): readonly number[] {
    const v = this.map.get(key);
    return v === undefined ? EMPTY : typeof v === 'number' ? [v] : v;
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }
}

const EMPTY: readonly number[] = [];
