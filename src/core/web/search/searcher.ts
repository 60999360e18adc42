/**
 * web_search's port: the configured provider (SearXNG, Brave, or keyless DuckDuckGo by default), reached through the same SSRF-safe
 * fetch as web_fetch (every address checked, redirects re-checked, size and time capped). The
 * provider's own host is an explicit opt-in of the user (a trust-sensitive setting), like an entry
 * of fetchAllowHosts, so a SearXNG on localhost works; cloud metadata addresses stay blocked.
 */
import type { PatchPilotSettings } from '../../config/settings';
import type { WebSearcher } from '../../ports';
import { safeFetch, type SafeFetchOptions } from '../safeFetch';
import type { NetworkPolicySettings } from '../settings';
import { brave, searxng, type SearchProviderSpec } from './providers';
import { duckduckgo } from './duckduckgo';

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 1024 * 1024;

/**
 * The provider the settings and the key choose, or undefined (search off: the tool is not offered).
 * Nothing configured: DuckDuckGo, which needs no key and no instance of one's own.
 */
export function chooseProvider(settings: PatchPilotSettings['webSearch'], braveKey: string | undefined): SearchProviderSpec | { problem: string } | undefined {
  const provider = settings.provider ?? (settings.url ? 'searxng' : braveKey ? 'brave' : 'duckduckgo');
  if (provider === 'off') return undefined;
  if (provider === 'duckduckgo') return duckduckgo(settings.url);
  if (provider === 'searxng')
    return settings.url
      ? searxng(settings.url)
      : { problem: 'web search: patchpilot.webSearch.provider is searxng but patchpilot.webSearch.url (the instance) is not set' };
  if (!braveKey)
    return { problem: 'web search: patchpilot.webSearch.provider is brave but no Brave Search API key is set (PATCHPILOT_BRAVE_API_KEY, or the secret store)' };
  return brave(braveKey, settings.url);
}

export function createWebSearcher(
  spec: SearchProviderSpec,
  network: NetworkPolicySettings,
  fetcher: typeof safeFetch = safeFetch,
  extra: Omit<SafeFetchOptions, 'signal' | 'settings' | 'headers'> = {},
): WebSearcher {
  return async (query, signal) => {
    const { url, headers } = spec.request(query);
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const settings: NetworkPolicySettings = { ...network, fetchAllowHosts: [...network.fetchAllowHosts, host] };
    const html = spec.answer === 'html';
    const r = await fetcher(url, { signal, settings, headers, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, maxRedirects: 2, rawHtml: html, ...extra });
    if (r.kind === 'refused') return { provider: spec.name, error: `refused by the network policy (${r.decision.rule}): ${r.decision.reason}` };
    if (r.kind === 'error') return { provider: spec.name, error: `the search request failed: ${r.error}` };
    let body: unknown = html ? r.text : undefined;
    if (!html) {
      try {
        body = JSON.parse(r.text);
      } catch {
        body = undefined;
      }
    }
    if (!r.ok) return { provider: spec.name, error: spec.explain(r.status, body) };
    if (body === undefined)
      return { provider: spec.name, error: `the answer is not JSON (${r.contentType || 'no content type'}${r.truncated ? ', cut' : ''})` };
    const hits = spec.parse(body);
    return typeof hits === 'string' ? { provider: spec.name, error: hits } : { provider: spec.name, hits };
  };
}
