import { fail } from './errors';

/**
 * Path handling for every format: git's quoted C-escaped names, `a/` `b/` `./` prefixes,
 * timestamps after names, and spotting a bare path line in prose (SEARCH/REPLACE, fences).
 * Absolute paths and `..` are returned as written: refusing them is the applier's job.
 */

/** Forward slashes, no `./` segments, no doubled slashes. Keeps `..` and a leading `/`. */
export function normalisePath(raw: string): string {
  let p = raw.replace(/\\/g, '/');
  const absolute = p.startsWith('/');
  const parts = p.split('/').filter((part) => part !== '' && part !== '.');
  p = parts.join('/');
  return absolute ? `/${p}` : p;
}

/** Removes one git-style `a/` or `b/` prefix. */
export function stripGitPrefix(p: string): string {
  return p.startsWith('a/') || p.startsWith('b/') ? p.slice(2) : p;
}

const SIMPLE_ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  '\\': 92,
};

/**
 * Reads a git quoted name starting at `start` (which holds `"`): C escapes, octal bytes that
 * form UTF-8 (`\303\251` is é). Returns the decoded name and the index after the closing quote.
 */
export function readQuoted(text: string, start: number, lineNumber: number): { value: string; end: number } {
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    }
    if (ch === '\\') {
      const next = text[i + 1];
      if (next !== undefined && next >= '0' && next <= '7') {
        let j = i + 1;
        let code = 0;
        while (j < text.length && j < i + 4 && text[j]! >= '0' && text[j]! <= '7') {
          code = code * 8 + (text.charCodeAt(j) - 48);
          j++;
        }
        bytes.push(code & 0xff);
        i = j;
        continue;
      }
      const simple = next === undefined ? undefined : SIMPLE_ESCAPES[next];
      if (simple === undefined) {
        fail(`unknown escape \`\\${next ?? ''}\` in quoted path ${text.slice(start)}`, lineNumber);
      }
      bytes.push(simple);
      i += 2;
      continue;
    }
    for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
    i++;
  }
  return fail(`quoted path ${text.slice(start)} has no closing \`"\``, lineNumber);
}

/** ` 2024-01-31 12:00:00.000000000 +0100` or `2024-01-31T12:00` written after a name with spaces. */
const SPACED_TIMESTAMP = / \d{4}-\d\d-\d\d[ T]\d\d:\d\d/;

/**
 * The name in a `--- x` / `+++ x` header (text after the marker). Returns null for /dev/null.
 * Git quotes odd names; diff(1) puts a timestamp after a tab; some models after spaces.
 */
export function headerName(rest: string, lineNumber: number): string | null {
  let name: string;
  if (rest.startsWith('"')) {
    name = readQuoted(rest, 0, lineNumber).value;
  } else {
    const tab = rest.indexOf('\t');
    name = tab >= 0 ? rest.slice(0, tab) : rest;
    const stamp = SPACED_TIMESTAMP.exec(name);
    if (stamp) name = name.slice(0, stamp.index);
    name = name.trim();
  }
  if (name === '/dev/null' || name === 'dev/null') return null;
  if (name === '') fail('file header has no path', lineNumber);
  return name;
}

/**
 * The two names of `diff --git a/x b/y` (text after `diff --git `). Unquoted names with spaces
 * are ambiguous; the symmetric split `a/P b/P` is tried first, then ` b/`. Returns undefined
 * when the line cannot be read (other header lines may still name the file).
 */
export function gitDiffNames(rest: string, lineNumber: number): { old: string; new: string } | undefined {
  if (rest.startsWith('"')) {
    const first = readQuoted(rest, 0, lineNumber);
    const tail = rest.slice(first.end).trimStart();
    if (tail === '') return undefined;
    const second = tail.startsWith('"') ? readQuoted(tail, 0, lineNumber).value : tail;
    return { old: first.value, new: second };
  }
  const quoteAt = rest.indexOf(' "');
  if (quoteAt > 0) {
    return { old: rest.slice(0, quoteAt), new: readQuoted(rest, quoteAt + 1, lineNumber).value };
  }
  if ((rest.length - 1) % 2 === 0) {
    const mid = (rest.length - 1) / 2;
    const left = rest.slice(0, mid);
    const right = rest.slice(mid + 1);
    if (rest[mid] === ' ' && stripGitPrefix(left) === stripGitPrefix(right)) return { old: left, new: right };
  }
  const bAt = rest.indexOf(' b/');
  if (bAt > 0) return { old: rest.slice(0, bAt), new: rest.slice(bAt + 1) };
  const space = rest.indexOf(' ');
  if (space > 0) return { old: rest.slice(0, space), new: rest.slice(space + 1) };
  return undefined;
}

/** Extension-less names common enough to be recognised as a path line on their own. */
const BARE_FILE_NAMES = new Set([
  'Makefile',
  'makefile',
  'GNUmakefile',
  'Dockerfile',
  'Containerfile',
  'Jenkinsfile',
  'Procfile',
  'Gemfile',
  'Rakefile',
  'Vagrantfile',
  'Brewfile',
  'LICENSE',
  'README',
  'CHANGELOG',
  'CODEOWNERS',
  'Justfile',
  'justfile',
  'BUILD',
  'WORKSPACE',
]);

/** `File: x`, `**File:** x`, `**File**: x`. The colon is required: `path/to/x` is not a label. */
const LABEL = /^(?:\*\*|__)?(?:file|filename|path|file path)(?:\s*:\s*(?:\*\*|__)?|(?:\*\*|__)\s*:)\s*/i;

/**
 * Reads a line that names a file on its own: `src/app.py`, `` `src/app.py` ``, `**src/app.py**`,
 * `### src/app.py`, `File: src/app.py`, `src/app.py:`. Returns undefined for prose. A name with
 * spaces is only accepted when it was explicitly wrapped in backticks, bold or quotes.
 */
export function pathFromLine(line: string): string | undefined {
  let s = line.trim();
  if (s === '' || s.length > 300 || /^[+@\\<>=|]\s/.test(s) || s.startsWith('```')) return undefined;
  s = s.replace(/^#{1,6}\s+/, '').replace(/^[-*]\s+/, '');
  s = s.replace(LABEL, '');
  let wrapped = false;
  for (let round = 0; round < 3; round++) {
    const before = s;
    s = s.replace(/:$/, '').trim();
    for (const w of ['**', '__', '`', '"', "'", '*']) {
      if (s.length > 2 * w.length && s.startsWith(w) && s.endsWith(w)) {
        s = s.slice(w.length, s.length - w.length).trim();
        wrapped = true;
        break;
      }
    }
    s = s.replace(LABEL, '');
    if (s === before) break;
  }
  if (s === '' || /[`<>|"*?\t]/.test(s) || s.includes('://')) return undefined;
  if (!wrapped && /\s/.test(s)) return undefined;
  if (/^[-+@\\=]/.test(s) || s.endsWith('.')) return undefined;
  const base = s.slice(s.lastIndexOf('/') + 1);
  const pathy = (s.includes('/') || s.includes('.')) && /[A-Za-z0-9_]/.test(s);
  return pathy || BARE_FILE_NAMES.has(base) ? s : undefined;
}

/**
 * A prose line that introduces a block and names one file in backticks:
 * "Then in `src/app.py`:", "Update `lib/x.ts` as follows:". Needs the closing colon and exactly
 * one backticked path, so sentences that merely mention files are not read as a target.
 */
export function pathMentionedIn(line: string): string | undefined {
  const s = line.trim();
  if (!s.endsWith(':') || s.length > 200) return undefined;
  const spans = s.split('`');
  if (spans.length !== 3) return undefined;
  const inner = spans[1]!.trim();
  if (inner === '' || /\s/.test(inner) || !(inner.includes('/') || inner.includes('.'))) return undefined;
  return pathFromLine(inner);
}

/**
 * A path named in a fence info string: ```` ```python src/app.py ````, ```` ```src/app.py ````,
 * ```` ```python:src/app.py ````. A bare language tag yields undefined.
 */
export function pathFromFenceInfo(info: string): string | undefined {
  if (info === '') return undefined;
  const tokens = info.split(/\s+/);
  for (let i = tokens.length - 1; i >= 0; i--) {
    let token = tokens[i]!;
    const titled = /^(?:title|file|path)=["']?([^"']*)["']?$/i.exec(token);
    if (titled) token = titled[1]!;
    const colon = token.indexOf(':');
    if (colon > 0 && !/^[A-Za-z]:[\\/]/.test(token)) token = token.slice(colon + 1);
    const found = pathFromLine(token);
    if (found !== undefined) return found;
  }
  return undefined;
}
