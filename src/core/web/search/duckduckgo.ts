/**
 * DuckDuckGo, the keyless provider (the default when no provider, URL or key is configured): GET
 * its HTML results page (`?q=...`) and read the result blocks. Written here rather than taken from
 * an npm scraper so the request goes through the SSRF-safe fetch like every other provider, and so
 * a test can point `patchpilot.webSearch.url` at a local server.
 *
 * The page: one `<div class="result ...">` per hit, its title in `<a class="result__a" href=...>`,
 * its text in `class="result__snippet"`; links go through a redirect whose `uddg` parameter is the
 * target. Ads are `result--ad` blocks; an empty search has a `no-results` block; too many automated
 * queries get a challenge page (`anomaly`) instead.
 */
import type { WebSearchHit } from '../../ports';
import { hits, type SearchProviderSpec } from './providers';

export const DUCKDUCKGO_ENDPOINT = 'https://html.duckduckgo.com/html/';

export function duckduckgo(endpoint: string = DUCKDUCKGO_ENDPOINT): SearchProviderSpec {
  return {
    name: 'duckduckgo',
    answer: 'html',
    request(query) {
      const url = new URL(endpoint);
      url.searchParams.set('q', query);
      return { url: url.href, headers: { accept: 'text/html' } };
    },
    parse(body) {
      return typeof body === 'string' ? parseResultsPage(body, endpoint) : 'the answer is not a page';
    },
    explain(status) {
      if (status === 429 || status === 403) return `DuckDuckGo is refusing automated searches from this address (${status}); ${ALTERNATIVES}`;
      return `DuckDuckGo answered HTTP ${status}`;
    },
  };
}

const ALTERNATIVES = 'try later, or set patchpilot.webSearch.provider to searxng or brave';

/** Each result block starts a `div` whose classes include the word `result` (not `result__body`). */
const BLOCK_START = /<div\b[^>]*\bclass="(?:[^"]*\s)?result(?:\s[^"]*)?"[^>]*>/gi;
const TITLE = /<a\b([^>]*\bclass="[^"]*\bresult__a\b[^"]*"[^>]*)>([\s\S]*?)<\/a>/i;
const SNIPPET = /<(a|div|td|span)\b[^>]*\bclass="[^"]*\bresult__snippet\b[^"]*"[^>]*>([\s\S]*?)<\/\1>/i;

export function parseResultsPage(html: string, endpoint: string): WebSearchHit[] | string {
  const starts = [...html.matchAll(BLOCK_START)];
  if (starts.length === 0) {
    if (/\bno-results\b/.test(html)) return [];
    if (/\banomaly/i.test(html)) return `DuckDuckGo asked for a challenge instead of results (too many automated searches); ${ALTERNATIVES}`;
    return 'the page has no results list (is this DuckDuckGo?)';
  }
  const raw: { title?: unknown; url?: unknown; snippet?: unknown }[] = [];
  starts.forEach((start, i) => {
    if (/result--ad\b/.test(start[0])) return;
    const block = html.slice(start.index, starts[i + 1]?.index ?? html.length);
    const title = TITLE.exec(block);
    const href = title && /\bhref="([^"]*)"/i.exec(title[1]!)?.[1];
    const url = href ? target(href, endpoint) : undefined;
    if (!title || !url) return;
    raw.push({ title: title[2], url, snippet: SNIPPET.exec(block)?.[2] ?? '' });
  });
  return hits(raw);
}

/** The result's own address: the redirect's `uddg` target, or a direct link off the search site. */
function target(href: string, endpoint: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.replace(/&amp;/g, '&'), endpoint);
  } catch {
    return undefined;
  }
  const wrapped = url.searchParams.get('uddg');
  if (wrapped) return wrapped;
  const site = new URL(endpoint).hostname.split('.').slice(-2).join('.');
  return url.hostname === site || url.hostname.endsWith(`.${site}`) ? undefined : url.href;
}
