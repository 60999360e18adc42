/**
 * Which words of a text a history search matched: one implementation for the store (it cuts the
 * snippet around the first match) and the panel (it marks the matched words). Words are split and
 * folded the way SQLite's unicode61 tokenizer does for the index (letters and digits, lower case,
 * Latin diacritics removed), so what is highlighted is what BM25 scored. Zero imports.
 */

export interface QueryTerm {
  /** Folded (lower case, no diacritics). */
  text: string;
  /** Matches any word that starts with `text` (the word being typed). */
  prefix: boolean;
}

/** [start, end) offsets into the text. */
export type MatchRange = [number, number];

const MAX_TERMS = 32;
const WORD = /[\p{L}\p{N}]+/gu;

export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The distinct words of a query. With `prefixLast`, the last word also matches longer words unless
 * the query ends with a space (it is still being typed: "pars" finds "parser").
 */
export function queryTerms(query: string, prefixLast = false): QueryTerm[] {
  const words = query.match(WORD) ?? [];
  const out: QueryTerm[] = [];
  const seen = new Set<string>();
  const typing = prefixLast && /[\p{L}\p{N}]$/u.test(query);
  words.forEach((w, i) => {
    const text = foldWord(w);
    const prefix = typing && i === words.length - 1;
    const key = `${text}${prefix ? '*' : ''}`;
    if (!text || seen.has(key) || out.length >= MAX_TERMS) return;
    seen.add(key);
    out.push({ text, prefix });
  });
  return out;
}

/** Where the terms occur in `text`, in order, at most `max` ranges. */
export function matchRanges(text: string, terms: readonly QueryTerm[], max = 200): MatchRange[] {
  if (terms.length === 0 || !text) return [];
  const out: MatchRange[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = foldWord(m[0]);
    if (terms.some((t) => (t.prefix ? word.startsWith(t.text) : word === t.text))) {
      out.push([m.index!, m.index! + m[0].length]);
      if (out.length >= max) break;
    }
  }
  return out;
}

export interface Snippet {
  text: string;
  ranges: MatchRange[];
}

/**
 * Up to `width` characters of `text` from `before` characters ahead of its first match (the start
 * when nothing matches), on one line, with "…" where it was cut, and the match ranges inside the cut.
 */
export function snippetAround(text: string, terms: readonly QueryTerm[], width = 240, before = 40): Snippet {
  const flat = text.replace(/\s+/g, ' ').trim();
  const first = matchRanges(flat, terms, 1)[0];
  let start = 0;
  // A little context before the match, so the match shows even where the snippet is cut short.
  if (first && first[0] > before) start = Math.max(0, first[0] - before);
  if (start > 0 && flat.length - start < width) start = Math.max(0, flat.length - width);
  const end = Math.min(flat.length, start + width);
  const head = start > 0 ? '…' : '';
  const tail = end < flat.length ? '…' : '';
  const body = flat.slice(start, end);
  const cut = `${head}${body}${tail}`;
  return { text: cut, ranges: matchRanges(body, terms).map(([a, b]) => [a + head.length, b + head.length]) };
}
