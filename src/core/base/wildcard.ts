/**
 * Glob and wildcard matching in O(text length x pattern length), never worse (attacks.patterns).
 *
 * Patterns come from the model (glob tool, grep include, shell words) and match against names it
 * can also choose. A glob compiled to a JS RegExp backtracks: `*a*a*a*a*b` against a long name
 * takes exponential-in-stars time and blocks the event loop, so the wall clock and Ctrl-C stop
 * working. Here a pattern becomes a small Thompson automaton (braces are alternation inside it,
 * not an expansion, so `{a,b}{c,d}...` stays linear in size) and the text is run through it keeping
 * the set of live states: each character costs at most one visit per state.
 *
 * Why not picomatch (installed, and the field's usual choice): it compiles a glob to a RegExp and
 * inherits the backtracking. Measured here: `*a*a*a*a*a*a*a*a*a*b` against 28 "a"s takes 48 ms, and
 * `**` + `/` + the same against a 30-character name 1 s, about ten times more per few characters. The
 * patterns matched here come from the model, so the matcher must be linear; the `ignore` package
 * (gitignore syntax) serves the user's own path globs (denyPaths, protected paths, runOnSave).
 */

export interface Matcher {
  test(text: string): boolean;
}

/** Longer patterns are refused: no real file pattern is this long, and the cost grows with it. */
export const MAX_PATTERN_LENGTH = 1000;

interface Node {
  /** Consuming node: the character it accepts, then `to`. */
  pred?: (ch: string) => boolean;
  to?: number;
  /** Epsilon moves. */
  eps?: number[];
  accept?: boolean;
}

type Item = { k: 'pred'; pred: (ch: string) => boolean } | { k: 'star'; pred: (ch: string) => boolean } | { k: 'dirs' } | { k: 'alt'; branches: Item[][] };

const notSlash = (ch: string) => ch !== '/';
const isSlash = (ch: string) => ch === '/';
const anyChar = () => true;

export interface GlobOptions {
  /** `{a,b}` alternatives (default true); shell words have had brace expansion already. */
  braces?: boolean;
}

/**
 * A path glob: `*` and `?` stay within one segment, `**` followed by "/" at a segment start is any
 * number of whole directories, any other `**` is any text, `[a-z]` / `[!a-z]` classes (never "/"),
 * `{a,b}` alternatives (nestable). The whole text must match.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): Matcher {
  checkLength(pattern);
  const braces = options.braces ?? true;
  let i = 0;
  const parseSeq = (depth: number): Item[] => {
    const items: Item[] = [];
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (braces && depth > 0 && (c === ',' || c === '}')) return items;
      i++;
      if (c === '*') {
        if (pattern[i] === '*') {
          const atSegmentStart = i === 1 || pattern[i - 2] === '/';
          while (pattern[i] === '*') i++; // "***" is "**"
          if (atSegmentStart && pattern[i] === '/') {
            i++;
            items.push({ k: 'dirs' });
          } else items.push({ k: 'star', pred: anyChar });
        } else items.push({ k: 'star', pred: notSlash });
      } else if (c === '?') items.push({ k: 'pred', pred: notSlash });
      else if (c === '[' && pattern.indexOf(']', i) !== -1) {
        const close = pattern.indexOf(']', i);
        items.push({ k: 'pred', pred: classPredicate(pattern.slice(i, close)) });
        i = close + 1;
      } else if (c === '{' && braces) {
        const branches: Item[][] = [];
        for (;;) {
          branches.push(parseSeq(depth + 1));
          if (i >= pattern.length) throw new Error(`unbalanced "{" in glob ${JSON.stringify(pattern)}`);
          if (pattern[i++] === '}') break;
        }
        items.push({ k: 'alt', branches });
      } else items.push({ k: 'pred', pred: (ch) => ch === c });
    }
    return items;
  };
  return build(parseSeq(0));
}

/** A flat wildcard (command allow rules): `*` is any text, "/" included; `?` is one character. */
export function compileWildcard(pattern: string): Matcher {
  checkLength(pattern);
  const items: Item[] = [...pattern].map((c): Item =>
    c === '*' ? { k: 'star', pred: anyChar } : c === '?' ? { k: 'pred', pred: anyChar } : { k: 'pred', pred: (ch) => ch === c },
  );
  return build(items);
}

function checkLength(pattern: string): void {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`pattern longer than ${MAX_PATTERN_LENGTH} characters`);
}

/** `a-z0-9_` or `!a-z` (also `^a-z`); the class never matches "/". */
function classPredicate(body: string): (ch: string) => boolean {
  const negate = body.startsWith('!') || body.startsWith('^');
  const chars = [...(negate ? body.slice(1) : body)];
  const ranges: [string, string][] = [];
  for (let k = 0; k < chars.length; k++) {
    if (chars[k + 1] === '-' && k + 2 < chars.length) {
      ranges.push([chars[k]!, chars[k + 2]!]);
      k += 2;
    } else ranges.push([chars[k]!, chars[k]!]);
  }
  return (ch) => ch !== '/' && ranges.some(([lo, hi]) => ch >= lo && ch <= hi) !== negate;
}

function build(items: Item[]): Matcher {
  const nodes: Node[] = [{ accept: true }];
  const add = (n: Node) => nodes.push(n) - 1;
  const seq = (list: Item[], next: number): number => {
    let cur = next;
    for (let k = list.length - 1; k >= 0; k--) cur = item(list[k]!, cur);
    return cur;
  };
  const item = (it: Item, next: number): number => {
    switch (it.k) {
      case 'pred':
        return add({ pred: it.pred, to: next });
      case 'star': {
        const loop = add({ eps: [next] });
        nodes[loop]!.eps!.push(add({ pred: it.pred, to: loop }));
        return loop;
      }
      case 'dirs': {
        // (?:[^/]*/)*: zero or more "segment/" groups.
        const outer = add({ eps: [next] });
        const inner = add({ eps: [add({ pred: isSlash, to: outer })] });
        nodes[inner]!.eps!.push(add({ pred: notSlash, to: inner }));
        nodes[outer]!.eps!.push(inner);
        return outer;
      }
      case 'alt':
        return add({ eps: it.branches.map((b) => seq(b, next)) });
    }
  };
  const start = seq(items, 0);
  return { test: (text) => run(nodes, start, text) };
}

/**
 * A file-name glob as people and models write it (the glob tool, grep's include, rules files'
 * `globs:` and `applyTo`): a pattern without "/" matches a file name at any depth
 * ("*.ts" = "**\/*.ts"); a leading "./" is dropped. Linear like compileGlob.
 */
export function fileGlob(pattern: string): Matcher {
  let p = pattern.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!p.includes('/')) p = `**/${p}`;
  return compileGlob(p);
}

/** Runs the automaton keeping the set of live states; `mark` stamps make each state count once per step. */
function run(nodes: Node[], start: number, text: string): boolean {
  const mark = new Uint32Array(nodes.length);
  let stamp = 1;
  let live: number[] = [];
  const stack: number[] = [];
  const enter = (id: number, into: number[]) => {
    stack.push(id);
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (mark[n] === stamp) continue;
      mark[n] = stamp;
      const node = nodes[n]!;
      if (node.eps) for (const e of node.eps) stack.push(e);
      if (node.pred || node.accept) into.push(n);
    }
  };
  enter(start, live);
  for (const ch of text) {
    stamp++;
    const next: number[] = [];
    for (const n of live) {
      const node = nodes[n]!;
      if (node.pred?.(ch)) enter(node.to!, next);
    }
    if (next.length === 0) return false;
    live = next;
  }
  return live.some((n) => nodes[n]!.accept);
}
