/**
 * A small markdown subset for model text, parsed to tokens here (no DOM, unit-tested in plain Node)
 * and turned into DOM nodes by markdown.ts: model text is never HTML. Links count only with an http(s) target and open
 * through the host; images are never fetched (their alt text and address are shown as text).
 */

export type Inline =
  | { t: 'text'; text: string }
  | { t: 'code'; text: string }
  | { t: 'strong'; children: Inline[] }
  | { t: 'em'; children: Inline[] }
  | { t: 'link'; href: string; children: Inline[] };

export type Block =
  | { t: 'p'; inline: Inline[] }
  | { t: 'h'; level: number; inline: Inline[] }
  | { t: 'code'; lang: string; text: string }
  | { t: 'list'; ordered: boolean; items: Inline[][] }
  | { t: 'quote'; inline: Inline[] };

export function isSafeHref(href: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(href);
}

export function parseBlocks(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ t: 'p', inline: parseInline(para.join('\n')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) body.push(lines[i]!);
      out.push({ t: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      out.push({ t: 'h', level: heading[1]!.length, inline: parseInline(heading[2]!) });
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const ordered = item[2] !== undefined;
      const last = out[out.length - 1];
      if (last?.t === 'list' && last.ordered === ordered) last.items.push(parseInline(item[3]!));
      else out.push({ t: 'list', ordered, items: [parseInline(item[3]!)] });
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      out.push({ t: 'quote', inline: parseInline(quote[1]!) });
      continue;
    }
    if (!line.trim()) flush();
    else para.push(line);
  }
  flush();
  return out;
}

export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const push = (node: Inline) => {
    if (text) out.push({ t: 'text', text });
    text = '';
    out.push(node);
  };
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^`([^`\n]+)`/.exec(rest))) push({ t: 'code', text: m[1]! });
    else if ((m = /^!\[([^\]\n]*)\]\(([^)\s]*)\)/.exec(rest))) push({ t: 'text', text: `[image: ${m[1] || 'untitled'} (${m[2]}) not loaded]` });
    else if ((m = /^\[([^\]\n]+)\]\(([^)\s]+)\)/.exec(rest)))
      push(isSafeHref(m[2]!) ? { t: 'link', href: m[2]!, children: parseInline(m[1]!) } : { t: 'text', text: m[0] });
    else if (src[i] === '*' || src[i] === '_') {
      // Emphasis by CommonMark's flanking rules: `_` never opens or closes inside a word (snake_case, foo__bar__).
      const e = emphasisAt(src, i);
      if (e) {
        const children = parseInline(src.slice(e.from, e.to));
        push(e.len === 1 ? { t: 'em', children } : e.len === 2 ? { t: 'strong', children } : { t: 'em', children: [{ t: 'strong', children }] });
        i = e.end;
      } else {
        const run = runEnd(src, i) - i;
        text += src.slice(i, i + run);
        i += run;
      }
      continue;
    } else {
      text += src[i];
      i++;
      continue;
    }
    i += m[0].length;
  }
  if (text) out.push({ t: 'text', text });
  return out;
}

/** The end of the run of the same delimiter character that starts at `i`. */
function runEnd(src: string, i: number): number {
  let k = i;
  while (src[k] === src[i]) k++;
  return k;
}

const isSpace = (c: string) => /\s/.test(c);
const isPunct = (c: string) => /[\p{P}\p{S}]/u.test(c);

/** A delimiter run [start, end): whether it can open and close emphasis (CommonMark 6.2, left- and right-flanking). */
function delimiter(src: string, start: number, end: number): { open: boolean; close: boolean } {
  const before = start > 0 ? src[start - 1]! : ' ';
  const after = end < src.length ? src[end]! : ' ';
  const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
  const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
  if (src[start] === '*') return { open: left, close: right };
  return { open: left && (!right || isPunct(before)), close: right && (!left || isPunct(after)) };
}

/**
 * Emphasis opened by the delimiter run at `i`: its content [from, to) and where it ends, or undefined
 * (the run is text). A run of 1 is <em>, 2 <strong>, 3 both; the closer is the first run of the same
 * character that can close and is as long (a longer one that cannot open also closes); a run that can
 * open on the way is nested emphasis, skipped as a whole; code spans are skipped.
 */
function emphasisAt(src: string, i: number): { len: number; from: number; to: number; end: number } | undefined {
  const end = runEnd(src, i);
  if (!delimiter(src, i, end).open) return undefined;
  const len = Math.min(end - i, 3);
  const from = i + len;
  let j = end;
  while (j < src.length) {
    const c = src[j]!;
    if (c === '`') {
      const code = /^`[^`\n]+`/.exec(src.slice(j));
      j += code ? code[0].length : 1;
      continue;
    }
    if (c !== src[i]) {
      j++;
      continue;
    }
    const runStop = runEnd(src, j);
    const d = delimiter(src, j, runStop);
    const n = runStop - j;
    if (d.close && (n === len || (n > len && !d.open)) && j > from) return { len, from, to: j, end: j + len };
    if (d.open) {
      const inner = emphasisAt(src, j);
      if (inner) {
        j = inner.end;
        continue;
      }
    }
    j = runStop;
  }
  return undefined;
}
