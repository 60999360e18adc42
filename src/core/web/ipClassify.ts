/**
 * Classifies an address (as bytes) into the ranges a fetch must never reach by default.
 * IPv4: a block list of special-purpose ranges (RFC 6890 and the cloud metadata addresses).
 * IPv6: an allow list: only global unicast (2000::/3) is public, minus its special sub-ranges;
 * forms that embed an IPv4 address (mapped, compatible, translated, NAT64, 6to4) are judged by
 * the embedded address, because that is where the packets end up.
 */
import { formatIp, parseIp } from './ipParse';

export type AddressCategory =
  | 'public'
  | 'cloud-metadata'
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'link-local'
  | 'shared-cgnat'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'benchmarking'
  | 'documentation'
  | 'protocol-assignment'
  | 'deprecated-tunnel';

export type Embedding = 'ipv4-mapped' | 'ipv4-compatible' | 'ipv4-translated' | 'nat64' | '6to4';

export interface AddressClass {
  category: AddressCategory;
  /** The matching range, e.g. "127.0.0.0/8"; "" for public. */
  range: string;
  /** Canonical text of the address. */
  address: string;
  /** Set when an IPv6 address carries an IPv4 address that decided the class. */
  embedded?: { via: Embedding; ipv4: string };
}

interface Range {
  bytes: Uint8Array;
  prefix: number;
  text: string;
  category: AddressCategory;
}

function range(cidr: string, category: AddressCategory): Range {
  const [ip, bits] = cidr.split('/');
  const parsed = parseIp(ip!);
  if (!parsed) throw new Error(`bad range ${cidr}`);
  return { bytes: parsed.bytes, prefix: Number(bits), text: cidr, category };
}

export function inPrefix(bytes: Uint8Array, net: Uint8Array, prefix: number): boolean {
  if (bytes.length !== net.length) return false;
  const full = prefix >> 3;
  for (let i = 0; i < full; i++) if (bytes[i] !== net[i]) return false;
  const rest = prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[full]! & mask) === (net[full]! & mask);
}

/** Metadata endpoints: never reachable, not even with allowPrivateNetwork or an allowlist. */
const METADATA: Range[] = [
  range('169.254.169.254/32', 'cloud-metadata'), // AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean
  range('169.254.170.2/32', 'cloud-metadata'), // AWS ECS task credentials
  range('169.254.169.123/32', 'cloud-metadata'), // AWS time sync
  range('100.100.100.200/32', 'cloud-metadata'), // Alibaba Cloud
  range('168.63.129.16/32', 'cloud-metadata'), // Azure wire server (a public-space address)
  range('fd00:ec2::254/128', 'cloud-metadata'), // AWS IMDS over IPv6
  range('fd00:ec2::23/128', 'cloud-metadata'), // AWS DNS over IPv6
];

const V4: Range[] = [
  range('0.0.0.0/8', 'unspecified'), // "this network"; 0.0.0.0 reaches the local host on Linux
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared-cgnat'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'protocol-assignment'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', 'deprecated-tunnel'), // 6to4 relay anycast
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'broadcast'),
  range('240.0.0.0/4', 'reserved'),
];

const V6: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b:1::/48', 'private'), // local-use NAT64 (RFC 8215)
  range('100::/64', 'reserved'), // discard-only
  range('2001::/32', 'deprecated-tunnel'), // Teredo: the client IPv4 is obfuscated, judge it unreachable
  range('2001:2::/48', 'benchmarking'),
  range('2001:10::/28', 'reserved'), // ORCHID
  range('2001:20::/28', 'reserved'), // ORCHIDv2
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'), // RFC 9637
  range('5f00::/16', 'reserved'), // SRv6 SIDs
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

const GLOBAL_UNICAST = range('2000::/3', 'public');

/** IPv6 prefixes whose low (or 6to4: middle) 32 bits are an IPv4 address. */
const EMBEDDINGS: { range: Range; via: Embedding; offset: number }[] = [
  { range: range('::ffff:0:0/96', 'public'), via: 'ipv4-mapped', offset: 12 },
  { range: range('::ffff:0:0:0/96', 'public'), via: 'ipv4-translated', offset: 12 },
  { range: range('64:ff9b::/96', 'public'), via: 'nat64', offset: 12 },
  { range: range('2002::/16', 'public'), via: '6to4', offset: 2 },
  // Last: ::/96 also holds :: and ::1, which the V6 table decides first.
  { range: range('::/96', 'public'), via: 'ipv4-compatible', offset: 12 },
];

export function classifyBytes(bytes: Uint8Array): AddressClass {
  const address = formatIp(bytes);
  for (const r of METADATA) if (inPrefix(bytes, r.bytes, r.prefix)) return { category: r.category, range: r.text, address };
  if (bytes.length === 4) {
    for (const r of V4) if (inPrefix(bytes, r.bytes, r.prefix)) return { category: r.category, range: r.text, address };
    return { category: 'public', range: '', address };
  }
  for (const r of V6) if (inPrefix(bytes, r.bytes, r.prefix)) return { category: r.category, range: r.text, address };
  for (const e of EMBEDDINGS) {
    if (!inPrefix(bytes, e.range.bytes, e.range.prefix)) continue;
    const v4 = bytes.slice(e.offset, e.offset + 4);
    const inner = classifyBytes(v4);
    const embedded = { via: e.via, ipv4: inner.address };
    // The deprecated IPv4-compatible form has no legitimate use: blocked even with a public IPv4.
    if (e.via === 'ipv4-compatible' && inner.category === 'public') {
      return { category: 'deprecated-tunnel', range: e.range.text, address, embedded };
    }
    return { ...inner, address, embedded };
  }
  if (inPrefix(bytes, GLOBAL_UNICAST.bytes, GLOBAL_UNICAST.prefix)) return { category: 'public', range: '', address };
  return { category: 'reserved', range: 'outside 2000::/3', address };
}

/** Classifies an IP literal in any notation; undefined when the text is not an IP literal. */
export function classifyIp(text: string): AddressClass | undefined {
  const parsed = parseIp(text);
  return parsed ? classifyBytes(parsed.bytes) : undefined;
}
