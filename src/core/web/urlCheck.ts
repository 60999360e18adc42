/**
 * The checks a URL must pass before any network activity: scheme, credentials, host name, and
 * (for IP literals and for every resolved address) the class of the address bytes.
 */
import type { PolicyDecision } from '../policy/types';
import { classifyBytes, inPrefix, type AddressClass } from './ipClassify';
import { parseIp, parseIPv4, parseIPv6 } from './ipParse';
import type { NetworkPolicySettings } from './settings';

export interface CheckedUrl {
  url: URL;
  /** Lower-case host without brackets or trailing dots: what is resolved and sent as SNI. */
  host: string;
  /** Set when the host is an IP literal: no DNS lookup happens for it. */
  ip?: { bytes: Uint8Array; family: 4 | 6 };
}

const deny = (rule: string, reason: string): PolicyDecision => ({ verdict: 'deny', rule, reason });

/** Names that mean "this machine" or "this private network" whatever DNS says. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'localdomain', 'internal', 'home.arpa', 'lan', 'intranet'];
const LOCAL_NAMES = new Set(['ip6-localhost', 'ip6-loopback', 'metadata', 'instance-data']);

export function normalizeHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  while (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/** Static checks of one URL (every redirect hop goes through this too). */
export function checkUrl(input: string | URL, settings: NetworkPolicySettings): CheckedUrl | { refusal: PolicyDecision } {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : new URL(input.href);
  } catch {
    return { refusal: deny('deny:url-invalid', `"${String(input).slice(0, 200)}" is not a valid absolute URL.`) };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { refusal: deny('deny:url-scheme', `Only http and https URLs can be fetched, not "${url.protocol}".`) };
  }
  if (url.username !== '' || url.password !== '') {
    return { refusal: deny('deny:url-credentials', 'URLs with embedded credentials (user@host) are refused.') };
  }
  const host = normalizeHost(url.hostname);
  if (host === '') return { refusal: deny('deny:url-invalid', 'The URL has no host.') };
  // Parse IP literals ourselves too, so a notation the URL parser left as a name is still caught.
  const v6 = parseIPv6(host);
  const v4 = v6 ? undefined : parseIPv4(host);
  if (v6?.zone !== undefined) {
    return { refusal: deny('deny:ip-zone', 'IPv6 addresses with a zone id (link-local scope) are refused.') };
  }
  const ip = v6 ? { bytes: v6.bytes, family: 6 as const } : v4 ? { bytes: v4, family: 4 as const } : undefined;
  if (ip) {
    const decision = checkAddress(ip.bytes, host, settings);
    if (decision.verdict !== 'allow') return { refusal: decision };
    return { url, host, ip };
  }
  if (!isHostAllowlisted(host, settings)) {
    const local = LOCAL_NAMES.has(host) || LOCAL_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`));
    if (local) return { refusal: deny('deny:local-hostname', `"${host}" names this machine or a private network.`) };
    if (!host.includes('.')) {
      return { refusal: deny('deny:single-label-host', `"${host}" is a single-label (intranet) name; fetch a fully qualified public name.`) };
    }
  }
  return { url, host };
}

/** Decides whether connecting to these address bytes is allowed for this host. */
export function checkAddress(bytes: Uint8Array, host: string, settings: NetworkPolicySettings): PolicyDecision {
  const cls = classifyBytes(bytes);
  if (cls.category === 'public') return { verdict: 'allow', rule: 'allow:public-address', reason: `${cls.address} is a public address.` };
  if (cls.category === 'cloud-metadata') {
    return deny('deny:cloud-metadata', `${describe(cls)} is a cloud metadata endpoint; it is never fetched.`);
  }
  if (settings.allowPrivateNetwork) {
    return { verdict: 'allow', rule: 'allow:private-network-setting', reason: `${describe(cls)} allowed by allowPrivateNetwork.` };
  }
  if (isHostAllowlisted(host, settings) || isAddressAllowlisted(bytes, settings)) {
    return { verdict: 'allow', rule: 'allow:fetchAllowHosts', reason: `${describe(cls)} allowed by patchpilot.policy.fetchAllowHosts.` };
  }
  return deny(`deny:ip-${cls.category}`, `${describe(cls)} is not a public address (${cls.category}${cls.range ? `, ${cls.range}` : ''}).`);
}

function describe(cls: AddressClass): string {
  return cls.embedded ? `${cls.address} (${cls.embedded.via} form of ${cls.embedded.ipv4})` : cls.address;
}

function isHostAllowlisted(host: string, settings: NetworkPolicySettings): boolean {
  return settings.fetchAllowHosts.some((entry) => !entry.includes('/') && !parseIp(entry) && normalizeHost(entry) === host);
}

function isAddressAllowlisted(bytes: Uint8Array, settings: NetworkPolicySettings): boolean {
  for (const entry of settings.fetchAllowHosts) {
    const [ipText, bitsText] = entry.split('/');
    const parsed = parseIp(normalizeHost(ipText!));
    if (!parsed || parsed.bytes.length !== bytes.length) continue;
    const prefix = bitsText === undefined ? bytes.length * 8 : Number(bitsText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > bytes.length * 8) continue;
    if (inPrefix(bytes, parsed.bytes, prefix)) return true;
  }
  return false;
}
