/**
 * How much information a URL carries, judged over the whole URL (attacks.network).
 *
 * A secret split over many path segments, query parameters, the fragment and subdomain labels is
 * as much data as the secret in one piece, so nothing here is per segment: the URL's parts are cut
 * into tokens (runs of letters and digits), each token is priced in bits by how random it looks,
 * and the sums are compared with two budgets:
 *   - random-looking text (hex, base64, mixed case with digits, letter soup): RANDOM_BITS, about
 *     twelve base64 characters. A short commit hash or an issue number fits; a key does not.
 *   - everything together, words included: TOTAL_BITS. Words are priced low (documentation paths
 *     are made of them), but a long enough text of words is data too.
 * Each distinct token also costs TOKEN_BITS (many tiny pieces are data in their order), repeated
 * tokens count once, and percent-encoding is undone first (%41%42 is "AB", raw bytes are costly).
 * What a URL of words can carry under TOTAL_BITS is the residue no URL heuristic can close: a fetch
 * to a new host with no data at all is still allowed.
 */

export const RANDOM_BITS = 72;
export const TOTAL_BITS = 300;
const TOKEN_BITS = 3;
/** A word-like token: letters at about English's low-order entropy. */
const WORD_BITS_PER_CHAR = 2.2;
/** Characters other than letters, digits and the usual URL punctuation. */
const ODD_CHAR_BITS = 6;

export interface UrlData {
  randomBits: number;
  totalBits: number;
  tokens: number;
}

/** The cost of the URL's host labels (below the registered name), path, query and fragment. */
export function measureUrlData(u: URL): UrlData {
  const parts: string[] = [decode(u.pathname), decode(u.search.replace(/\+/g, ' ')), decode(u.hash)];
  const labels = u.hostname.replace(/\.$/, '').split('.');
  // The registered name (last two labels) is fixed by whoever owns it; labels below it are free text.
  if (!/^[\d.]+$|:/.test(u.hostname)) parts.push(labels.slice(0, -2).join('.'));
  const text = parts.join(' ');
  let randomBits = 0;
  let totalBits = 0;
  const seen = new Set<string>();
  let count = 0;
  for (const token of text.match(/[A-Za-z0-9]+/g) ?? []) {
    if (token.length >= 4 && seen.has(token)) continue; // "concurrent.futures...#concurrent.futures" says it once; short pieces' order is data
    seen.add(token);
    count++;
    const [bits, random] = tokenBits(token);
    totalBits += bits + TOKEN_BITS;
    if (random) randomBits += bits;
  }
  const odd = text.replace(/[A-Za-z0-9/.\-_~&=?#+,:;@!$'()* ]/g, '');
  randomBits += [...odd].length * ODD_CHAR_BITS;
  totalBits += [...odd].length * ODD_CHAR_BITS;
  return { randomBits, totalBits, tokens: count };
}

/** A reason when the URL carries more than the budgets allow, else undefined. */
export function judgeUrlData(u: URL): string | undefined {
  const d = measureUrlData(u);
  if (d.randomBits > RANDOM_BITS) return `about ${Math.round(d.randomBits)} bits of random-looking text (encoded data) across the URL`;
  if (d.totalBits > TOTAL_BITS) return `about ${Math.round(d.totalBits)} bits of text in ${d.tokens} parts across the URL`;
  return undefined;
}

function decode(s: string): string {
  let out = s;
  // Twice: %2541 is %41 is "A".
  for (let k = 0; k < 2; k++) {
    try {
      out = decodeURIComponent(out);
    } catch {
      break;
    }
  }
  return out;
}

/** [bits, looks random] for one token of letters and digits. */
export function tokenBits(t: string): [number, boolean] {
  if (/^\d+$/.test(t)) return [t.length * Math.log2(10), t.length > 2]; // "v2", "#L42" are free; longer numbers are data
  if (t.length === 1) return [Math.log2(62), true]; // single characters, one per segment, spell anything
  if (isWordLike(t)) return [t.length * WORD_BITS_PER_CHAR, false];
  let alphabet = 0;
  if (/^[0-9a-f]+$/.test(t) || /^[0-9A-F]+$/.test(t)) alphabet = 16;
  else {
    if (/[a-z]/.test(t)) alphabet += 26;
    if (/[A-Z]/.test(t)) alphabet += 26;
    if (/\d/.test(t)) alphabet += 10;
  }
  return [t.length * Math.log2(alphabet), true];
}

/**
 * Words and compounds of words: "docs", "flatMap", "JavaScript", "en", "US", "v2", "es2022",
 * "fspromisesreadfilepath". Each camel-case piece must be pronounceable (vowels, no long consonant
 * runs); a random string of letters usually is not.
 */
function isWordLike(t: string): boolean {
  const m = /^([A-Za-z]+?)(\d{0,4})$/.exec(t); // a word with a short version suffix
  if (!m) return false;
  const letters = m[1]!;
  if (letters.length > 40) return false;
  const pieces = letters.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [];
  if (pieces.join('') !== letters) return false;
  if (pieces.length > 1 && letters.length / pieces.length < 3) return false; // "QuTjQt": many tiny pieces
  return pieces.every(pronounceable);
}

const ABBREVIATIONS =
  /^(fs|js|ts|md|vs|cs|rs|px|db|sh|ml|cd|src|css|std|pkg|npm|cmd|html|xml|svg|png|jpg|pdf|http|www|rpc|tcp|dns|ssh|cjs|mjs|jsx|tsx|cdn|rfc|sql|wasm|tls|ws|www)$/i;

function pronounceable(p: string): boolean {
  if (p.length >= 2 && p.length <= 3 && /^[A-Z]+$/.test(p)) return true; // acronyms: US, API, CSS
  if (ABBREVIATIONS.test(p)) return true;
  const vowels = (p.match(/[aeiouy]/gi) ?? []).length;
  if (p.length <= 4) return vowels > 0;
  if (vowels / p.length < 0.14 || vowels / p.length > 0.75) return false;
  return !/[^aeiouy]{6,}/i.test(p);
}
