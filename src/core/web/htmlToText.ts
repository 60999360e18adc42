/**
 * A small HTML-to-readable-text converter for fetched pages: drops scripts, styles and other
 * non-content, keeps headings as `#` lines, list items as `- `, links as `text (url)`, and
 * collapses whitespace. Not a full HTML parser (no dependency needed for this): it tokenizes tags
 * and text, which is enough for reading; the output is data for the model, never rendered.
 */

const DROP_WITH_CONTENT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'head', 'select', 'canvas']);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tr',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'title',
  'body',
  'html',
]);
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  deg: '°',
  times: '×',
  divide: '÷',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  shy: '',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    const named = ENTITIES[body.toLowerCase()];
    return named ?? whole;
  });
}

interface Tag {
  name: string;
  closing: boolean;
  attrs: string;
}

function parseTag(raw: string): Tag | undefined {
  const m = /^<\s*(\/?)\s*([a-zA-Z][a-zA-Z0-9:-]*)([\s\S]*?)\/?\s*>$/.exec(raw);
  if (!m) return undefined;
  return { closing: m[1] === '/', name: m[2]!.toLowerCase(), attrs: m[3] ?? '' };
}

function attr(attrs: string, name: string): string | undefined {
  const re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');
  const m = re.exec(attrs);
  if (!m) return undefined;
  return decodeEntities(m[1] ?? m[2] ?? m[3] ?? '');
}

function resolveHref(href: string, base: string | undefined): string | undefined {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  try {
    const u = base ? new URL(trimmed, base) : new URL(trimmed);
    // Only web links are worth showing; javascript:, data: and the like are dropped.
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

export function htmlToText(html: string, baseUrl?: string): string {
  const out: string[] = [];
  let dropUntil: string | undefined;
  let preDepth = 0;
  const links: { href: string | undefined; start: number }[] = [];
  const tokens = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ' ')
    .split(/(<[a-zA-Z/!?][^<>]*>)/);
  let title = '';
  let inTitle = false;
  for (const token of tokens) {
    if (token === '') continue;
    if (token.startsWith('<')) {
      const tag = parseTag(token);
      if (!tag) {
        if (!dropUntil && !token.startsWith('<!') && !token.startsWith('<?')) out.push(escapeText(token, preDepth > 0));
        continue;
      }
      if (dropUntil) {
        if (tag.closing && tag.name === dropUntil) dropUntil = undefined;
        if (tag.name === 'title') inTitle = !tag.closing;
        continue;
      }
      if (tag.name === 'title') {
        inTitle = !tag.closing;
        continue;
      }
      if (!tag.closing && DROP_WITH_CONTENT.has(tag.name) && !/\/\s*>$/.test(token)) {
        dropUntil = tag.name;
        continue;
      }
      if (tag.name === 'br') out.push('\n');
      else if (/^h[1-6]$/.test(tag.name)) out.push(tag.closing ? '\n\n' : `\n\n${'#'.repeat(Number(tag.name[1]))} `);
      else if (tag.name === 'li' && !tag.closing) out.push('\n- ');
      else if ((tag.name === 'td' || tag.name === 'th') && tag.closing) out.push(' | ');
      else if (tag.name === 'pre') {
        preDepth = Math.max(0, preDepth + (tag.closing ? -1 : 1));
        out.push('\n\n');
      } else if (tag.name === 'img' && !tag.closing) {
        const alt = attr(tag.attrs, 'alt');
        if (alt) out.push(` [image: ${alt}] `);
      } else if (tag.name === 'a') {
        if (!tag.closing) {
          links.push({ href: resolveHref(attr(tag.attrs, 'href') ?? '', baseUrl), start: out.length });
        } else {
          const link = links.pop();
          if (link?.href) {
            const text = out.slice(link.start).join('').replace(/\s+/g, ' ').trim();
            out.push(text === '' ? link.href : text === link.href ? '' : ` (${link.href})`);
          }
        }
      } else if (BLOCK.has(tag.name)) out.push('\n\n');
      continue;
    }
    if (inTitle) {
      title += token;
      continue;
    }
    if (dropUntil) continue;
    out.push(escapeText(token, preDepth > 0));
  }
  const body = collapse(out.join(''));
  const cleanTitle = decodeEntities(title).replace(/\s+/g, ' ').trim();
  return cleanTitle && !body.startsWith(`# ${cleanTitle}`) ? `${cleanTitle}\n\n${body}`.trim() : body;
}

/** Text nodes: entities decoded; whitespace collapsed unless inside <pre> (kept, marked by \u0000 for collapse()). */
function escapeText(text: string, pre: boolean): string {
  const decoded = decodeEntities(text);
  return pre ? decoded.replace(/ /g, '\u0000').replace(/\n/g, '\u0001') : decoded.replace(/\s+/g, ' ');
}

function collapse(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\u0000/g, ' ')
    .replace(/\u0001/g, '\n')
    .trim();
}
