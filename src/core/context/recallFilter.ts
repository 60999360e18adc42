/**
 * What earlier runs left in the history (observations with their tool results, Q&A summaries) was
 * recorded under the ignore rules of its day. A file the user added to `.patchpilotignore` since
 * must not come back through "From earlier runs" or `search_history`: hits are judged by the rules
 * as they are now. A hit is left out when its path is ignored now, when its text names an ignored
 * file, or when it carries an ignored file's content (the secret redactor's pieces of those files,
 * the same ones command output is cleaned of).
 */
import path from 'node:path';
import { scanWorkspace } from '../sandbox/workspaceScan';
import { SecretRedactor } from '../sandbox/secretRedactor';
import type { HistorySearch } from '../ports';

export interface CurrentIgnoreRules {
  /** The workspace root (real path). */
  root: string;
  /** `.patchpilotignore` and denyPaths as they are now, for workspace-relative POSIX paths (made once per search). */
  ignored(): (rel: string, isDir: boolean) => boolean;
}

/** Hits asked for beyond the limit, so that hits left out are replaced by the next best. */
const REFILL = 3;

/** `history`, searched through the ignore rules of now. */
export function searchUnderCurrentIgnoreRules(history: HistorySearch, rules: CurrentIgnoreRules): HistorySearch {
  return {
    async search(query, options = {}) {
      const limit = options.limit ?? 20;
      const hits = await history.search(query, { ...options, limit: limit * REFILL });
      if (hits.length === 0) return hits;
      const hidden = await hiddenNow(rules);
      return hits.filter((h) => !hidden(h)).slice(0, limit);
    },
  };
}

type Hit = { path: string | null; text: string; detail: string };

async function hiddenNow(rules: CurrentIgnoreRules): Promise<(hit: Hit) => boolean> {
  const isIgnored = rules.ignored();
  const scan = await scanWorkspace(rules.root, { isIgnored, isProtected: () => false });
  const redactor = await SecretRedactor.fromFiles(rules.root, [...scan.ignoredFiles, ...scan.linkedToIgnored]);
  const names = [...new Set([...scan.ignored, ...scan.ignoredFiles, ...scan.linkedToIgnored].map((e) => e.rel))];
  return (hit) => {
    if (hit.path && pathIgnored(rules.root, hit.path, isIgnored)) return true;
    const text = `${hit.path ?? ''}\n${hit.text}\n${hit.detail}`;
    if (names.some((n) => mentions(text, n))) return true;
    return redactor.redact(text).count > 0;
  };
}

function pathIgnored(root: string, p: string, isIgnored: (rel: string, isDir: boolean) => boolean): boolean {
  const rel = path.relative(root, path.resolve(root, p));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const posix = rel.split(path.sep).join('/');
  return isIgnored(posix, false) || isIgnored(posix, true);
}

/** `rel` as a path in the text: not inside a longer name (`notes.txt` is not in `mynotes.txt.bak`). */
function mentions(text: string, rel: string): boolean {
  const lower = text.toLowerCase();
  const needle = rel.toLowerCase();
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
    const before = lower[at - 1];
    const after = lower[at + needle.length];
    if (
      (before === undefined || !/[\w.-]/.test(before)) &&
      (after === undefined || !/[\w-]/.test(after) || (after === '.' && !/[\w]/.test(lower[at + needle.length + 1] ?? '')))
    )
      return true;
  }
  return false;
}
