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
    else if ((m = /^\*\*([^*\n]+)\*\*/.exec(rest)) || (m = /^__([^_\n]+)__/.exec(rest))) push({ t: 'strong', children: parseInline(m[1]!) });
    else if ((m = /^\*([^*\s][^*\n]*)\*/.exec(rest)) || (m = /^_([^_\s][^_\n]*)_(?![A-Za-z0-9])/.exec(rest))) push({ t: 'em', children: parseInline(m[1]!) });
    else {
      text += src[i];
      i++;
      continue;
    }
    i += m[0].length;
  }
  if (text) out.push({ t: 'text', text });
  return out;
}
