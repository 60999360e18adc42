/**
 * The stat signature -> hash cache of workspace paths (like git's index stat data): a path whose
 * signature did not change is not read again. An append-only log, `index.jsonl`: a kill -9 can only
 * tear its last line, which is skipped on load; it is a cache, so a lost entry costs a read, never a
 * wrong restore (a restore compares hashes of the bytes on disk). Compacted when mostly stale.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { appendFileConfined, writeFileConfined } from '../fs/confinedWrite';

interface Entry {
  sig: string;
  hash: string;
}

export class HashIndex {
  private readonly entries = new Map<string, Entry>();
  private pending: string[] = [];
  private lines = 0;

  /** `root`: the folder no link may be on the way from (the workspace); default the file's own folder. */
  constructor(
    private readonly file: string,
    private readonly root = path.dirname(file),
  ) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      this.lines++;
      try {
        const [rel, sig, hash] = JSON.parse(line) as [string, string, string | null];
        if (hash === null) this.entries.delete(rel);
        else this.entries.set(rel, { sig, hash });
      } catch {
        /* a torn last line */
      }
    }
  }

  /** The cached hash when `sig` still matches. */
  lookup(rel: string, sig: string): string | undefined {
    const e = this.entries.get(rel);
    return e && e.sig === sig ? e.hash : undefined;
  }

  set(rel: string, sig: string, hash: string): void {
    const e = this.entries.get(rel);
    if (e && e.sig === sig && e.hash === hash) return;
    this.entries.set(rel, { sig, hash });
    this.pending.push(JSON.stringify([rel, sig, hash]));
  }

  hashes(): Set<string> {
    return new Set([...this.entries.values()].map((e) => e.hash));
  }

  /** Appends what changed; rewrites the log (atomically) when most of it is stale. */
  flush(): void {
    if (this.pending.length === 0) return;
    this.lines += this.pending.length;
    if (this.lines > 2 * this.entries.size + 1000) {
      const all = [...this.entries].map(([rel, e]) => JSON.stringify([rel, e.sig, e.hash]));
      writeFileConfined(this.root, this.file, all.join('\n') + '\n');
      this.lines = all.length;
    } else {
      appendFileConfined(this.root, this.file, this.pending.join('\n') + '\n');
    }
    this.pending = [];
  }
}
