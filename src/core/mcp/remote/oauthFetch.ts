/**
 * The fetch a remote MCP server's transport (and its OAuth flow) uses. The configured URL is the
 * user's approved choice and is reached as configured, localhost included. Every other host is one
 * the server *told* us about (its protected-resource metadata names the authorization server,
 * whose metadata names the registration and token endpoints): a workspace's server could point
 * those at the user's router or a cloud metadata endpoint, so they pass the fetch policy of
 * `web_fetch` (web): public addresses only, unless patchpilot.policy.fetchAllowHosts or
 * allowPrivateNetwork opts a host in; cloud metadata addresses never, the configured host included.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { checkAddress, checkUrl, normalizeHost, parseIp, resolveChecked, systemResolver, type NetworkPolicySettings, type Resolver } from '../../web';

export interface OAuthFetchOptions {
  /** The server's configured URL: its host is reached as configured. */
  serverUrl: string;
  network: NetworkPolicySettings;
  resolver?: Resolver;
  fetch?: FetchLike;
}

export class RefusedUrlError extends Error {}

export function createOAuthFetch(o: OAuthFetchOptions): FetchLike {
  const base = o.fetch ?? ((url, init) => fetch(url, init));
  const serverHost = normalizeHost(new URL(o.serverUrl).hostname);
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input.href);
    const problem = await refusal(url, serverHost, o);
    if (problem) throw new RefusedUrlError(`refused to reach ${url.origin}${url.pathname} (named by the server's OAuth metadata): ${problem}`);
    // Never followed behind the check: the transport follows same-origin redirects through this fetch again; a login does not follow them.
    return base(url, { ...init, redirect: init?.redirect === 'error' ? 'error' : 'manual' });
  };
}

/**
 * Why a URL the server's OAuth metadata names may not be reached, or undefined: the one rule for what
 * is fetched (above) and for the authorization page the browser is sent to (login.ts), so a server
 * cannot send the user's browser to their router or a local service either.
 */
export function namedUrlRefusal(url: URL, o: Omit<OAuthFetchOptions, 'fetch'>): Promise<string | undefined> {
  return refusal(url, normalizeHost(new URL(o.serverUrl).hostname), o);
}

/** Why this URL may not be fetched, or undefined. */
async function refusal(url: URL, serverHost: string, o: Omit<OAuthFetchOptions, 'fetch'>): Promise<string | undefined> {
  const host = normalizeHost(url.hostname);
  const ip = parseIp(host);
  if (ip) {
    const d = checkAddress(ip.bytes, host, { fetchAllowHosts: [], allowPrivateNetwork: true });
    if (d.verdict !== 'allow') return d.reason;
  }
  if (host === serverHost) return undefined;
  const checked = checkUrl(url, o.network);
  if ('refusal' in checked) return checked.refusal.reason;
  if (checked.ip) return undefined;
  const resolved = await resolveChecked(host, o.resolver ?? systemResolver, o.network);
  if (resolved.kind === 'refused') return resolved.decision.reason;
  return undefined; // a name that does not resolve fails in fetch itself, with its own message
}
