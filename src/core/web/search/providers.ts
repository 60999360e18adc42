/**
 * The web search APIs web_search speaks, each a request URL and a parser of its answer.
 * SearXNG: GET <instance>/search?q=...&format=json (the instance must list json in search.formats).
 * Brave Search: GET https://api.search.brave.com/res/v1/web/search?q=... with X-Subscription-Token.
 * DuckDuckGo (keyless, the default): its HTML results page, in duckduckgo.ts.
 */
import type { WebSearchHit } from '../../ports';

export const BRAVE_ENDPOINT = 'https://api.search.brave.com/res/v1/web/search';
export const MAX_HITS = 10;

export interface SearchProviderSpec {
  name: 'searxng' | 'brave' | 'duckduckgo';
  /** What the answer is: JSON (parse gets the parsed value) or an HTML page (parse gets its markup). */
  answer: 'json' | 'html';
  request(query: string): { url: string; headers: Record<string, string> };
  /** Hits from the answer's body, or a message saying what the answer was instead. */
  parse(body: unknown): WebSearchHit[] | string;
  /** What an HTTP error status means for this provider. */
  explain(status: number, body: unknown): string;
}

export function searxng(instanceUrl: string): SearchProviderSpec {
  const base = new URL(instanceUrl);
  const endpoint = base.pathname.replace(/\/+$/, '').endsWith('/search')
    ? new URL(base.href)
    : new URL('search', base.href.endsWith('/') ? base.href : `${base.href}/`);
  return {
    name: 'searxng',
    answer: 'json',
    request(query) {
      const url = new URL(endpoint.href);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      return { url: url.href, headers: { accept: 'application/json' } };
    },
    parse(body) {
      const results = (body as { results?: unknown })?.results;
      if (!Array.isArray(results)) return 'the answer has no "results" list (is this a SearXNG instance?)';
      return hits(results.map((r: { title?: unknown; url?: unknown; content?: unknown }) => ({ title: r?.title, url: r?.url, snippet: r?.content })));
    },
    explain(status) {
      if (status === 403) return 'the instance refused format=json (403): it must list json under search.formats in its settings.yml';
      if (status === 429) return 'the instance is rate limiting (429)';
      return `the instance answered HTTP ${status}`;
    },
  };
}

export function brave(apiKey: string, endpoint: string = BRAVE_ENDPOINT): SearchProviderSpec {
  return {
    name: 'brave',
    answer: 'json',
    request(query) {
      const url = new URL(endpoint);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(MAX_HITS));
      return { url: url.href, headers: { accept: 'application/json', 'x-subscription-token': apiKey } };
    },
    parse(body) {
      const b = body as { web?: { results?: unknown }; type?: unknown };
      if (b?.type === 'ErrorResponse') return braveError(body) ?? 'Brave Search answered with an error';
      const results = b?.web?.results;
      // No "web" section: nothing was found.
      if (results === undefined) return [];
      if (!Array.isArray(results)) return "the answer's web.results is not a list";
      return hits(results.map((r: { title?: unknown; url?: unknown; description?: unknown }) => ({ title: r?.title, url: r?.url, snippet: r?.description })));
    },
    explain(status, body) {
      const detail = braveError(body);
      if (status === 401 || status === 403) return `Brave Search refused the API key (${status})${detail ? `: ${detail}` : ''}`;
      if (status === 429) return `Brave Search rate limit or quota reached (429)${detail ? `: ${detail}` : ''}`;
      return `Brave Search answered HTTP ${status}${detail ? `: ${detail}` : ''}`;
    },
  };
}

function braveError(body: unknown): string | undefined {
  const e = (body as { error?: { detail?: unknown; code?: unknown } })?.error;
  return typeof e?.detail === 'string' ? e.detail : typeof e?.code === 'string' ? e.code : undefined;
}

/** Well-formed http(s) hits only, HTML tags and entities out of titles and snippets, at most MAX_HITS. */
export function hits(raw: { title?: unknown; url?: unknown; snippet?: unknown }[]): WebSearchHit[] {
  const out: WebSearchHit[] = [];
  for (const r of raw) {
    if (typeof r.url !== 'string' || !/^https?:\/\//i.test(r.url)) continue;
    out.push({ title: plain(r.title, 200) || r.url, url: r.url, snippet: plain(r.snippet, 400) });
    if (out.length >= MAX_HITS) break;
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };

function plain(v: unknown, max: number): string {
  if (typeof v !== 'string') return '';
  const text = v
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|#39|nbsp|#x[0-9a-f]{1,6}|#\d{1,7});/gi, (m, e: string) => ENTITIES[e.toLowerCase()] ?? codePoint(e) ?? m)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** A numeric character reference's character (`&#x27;`, `&#8217;`), or undefined when it names none. */
function codePoint(entity: string): string | undefined {
  const n = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}
