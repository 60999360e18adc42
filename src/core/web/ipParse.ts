/**
 * IP literals parsed to bytes. Classification works on these bytes only, never on the text, so
 * every notation of the same address (127.1, 0x7f.1, 2130706433, ::ffff:7f00:1 ...) lands on
 * the same verdict (the node-ip CVE-2024-29415 lesson: string and regex checks miss notations).
 */

export interface ParsedIp {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
  /** IPv6 zone id (`fe80::1%eth0`), if any. */
  zone?: string;
}

/**
 * IPv4 in every notation inet_aton (and WHATWG URL) accepts: 1 to 4 parts, each decimal, octal
 * (leading 0) or hex (0x); the last part fills the remaining bytes (`127.1`, `2130706433`).
 * One trailing dot is tolerated, like the URL parser does.
 */
export function parseIPv4(text: string): Uint8Array | undefined {
  let s = text;
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s.length === 0) return undefined;
  const parts = s.split('.');
  if (parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const part of parts) {
    const n = parseIPv4Part(part);
    if (n === undefined) return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  for (const n of nums) if (n > 255) return undefined;
  const lastBytes = 4 - nums.length;
  if (last >= 256 ** lastBytes) return undefined;
  const out = new Uint8Array(4);
  nums.forEach((n, i) => (out[i] = n));
  for (let i = 0; i < lastBytes; i++) out[3 - i] = Math.floor(last / 256 ** i) % 256;
  return out;
}

function parseIPv4Part(part: string): number | undefined {
  if (part.length === 0) return undefined;
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    if (digits.length === 0) return 0; // "0x" is 0 for inet_aton and WHATWG
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return undefined;
  const n = parseInt(digits, radix);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Strict dotted quad (used inside IPv6 text, where only this form is legal). */
function parseDottedQuad(s: string): Uint8Array | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out[i] = n;
  }
  return out;
}

/** IPv6 text (brackets and a `%zone` or URL-encoded `%25zone` allowed) to 16 bytes. */
export function parseIPv6(text: string): { bytes: Uint8Array; zone?: string } | undefined {
  let s = text;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  let zone: string | undefined;
  const pct = s.indexOf('%');
  if (pct >= 0) {
    zone = s.slice(pct + 1).replace(/^25/, '');
    s = s.slice(0, pct);
    if (zone.length === 0) return undefined;
  }
  if (!s.includes(':')) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (side: string): number[] | undefined => {
    if (side === '') return [];
    const out: number[] = [];
    const pieces = side.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes('.')) {
        const quad = parseDottedQuad(piece);
        if (!quad) return undefined;
        out.push((quad[0]! << 8) | quad[1]!, (quad[2]! << 8) | quad[3]!);
      } else {
        if (!/^[0-9a-f]{1,4}$/i.test(piece)) return undefined;
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return undefined;
  // A dotted quad is only legal as the very last piece.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return undefined;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return zone === undefined ? { bytes } : { bytes, zone };
}

/** Any IP literal, or undefined when the text is a host name. */
export function parseIp(text: string): ParsedIp | undefined {
  const v6 = parseIPv6(text);
  if (v6) return { family: 6, ...v6 };
  const v4 = parseIPv4(text);
  if (v4) return { family: 4, bytes: v4 };
  return undefined;
}

export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return Array.from(bytes).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}
