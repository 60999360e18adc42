/**
 * safeFetch: the only way tools fetch URLs. Each hop (the first URL and every redirect) passes the
 * static URL checks, a single DNS resolution whose every answer is checked, and a connection to
 * exactly the checked address. Redirects are followed by hand (at most 5), an https -> http
 * downgrade is refused. Size, time, idle and decompression caps bound what a server can do to us.
 */
import type { PolicyDecision } from '../policy/types';
import { htmlToText } from './htmlToText';
import { requestOnce, type OnceResult } from './requestOnce';
import { resolveChecked, systemResolver, type ResolveOutcome, type Resolver } from './resolve';
import { DEFAULT_NETWORK_SETTINGS, type NetworkPolicySettings } from './settings';
import { checkUrl } from './urlCheck';
import { looksBinary } from '../base/binary';

export interface SafeFetchOptions {
  settings?: NetworkPolicySettings;
  resolver?: Resolver;
  /** Whole fetch, redirects included. Default 15 s. */
  timeoutMs?: number;
  /** Longest silence allowed between chunks. Default 10 s. */
  idleTimeoutMs?: number;
  /** Cap on the (decompressed) body in bytes. Default 2 MB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Cap on the response header block. Default 16 KB. */
  maxHeaderSize?: number;
  signal?: AbortSignal;
  /** Extra trusted CA certificates (PEM). */
  ca?: string | readonly string[];
  userAgent?: string;
  /**
   * Extra request headers (an API key, `accept: application/json`). Sent only to the first URL's
   * origin: a redirect to another origin goes without them, so a key never follows a hop elsewhere.
   */
  headers?: Readonly<Record<string, string>>;
  /** Keep an HTML body as markup instead of converting it to readable text (a parser reads it). */
  rawHtml?: boolean;
}

export interface RedirectHop {
  from: string;
  to: string;
  status: number;
  /** The address the hop's request actually connected to. */
  remoteAddress: string;
}

export interface SafeFetchResponse {
  kind: 'response';
  /** HTTP status in 200-299. */
  ok: boolean;
  status: number;
  /** Final URL, after redirects. */
  url: string;
  contentType: string;
  /** Readable text: HTML converted, other text as is, binary replaced by a note. */
  text: string;
  truncated: boolean;
  truncatedBy?: 'size' | 'time' | 'idle';
  /** Body bytes received (after decompression, up to the cap). */
  bytes: number;
  redirects: RedirectHop[];
  remoteAddress: string;
  note?: string;
}

export interface SafeFetchRefusal {
  kind: 'refused';
  ok: false;
  url: string;
  decision: PolicyDecision;
  redirects: RedirectHop[];
}

export interface SafeFetchError {
  kind: 'error';
  ok: false;
  url: string;
  error: string;
  redirects: RedirectHop[];
}

export type SafeFetchResult = SafeFetchResponse | SafeFetchRefusal | SafeFetchError;

export const FETCH_DEFAULTS = Object.freeze({
  timeoutMs: 15_000,
  idleTimeoutMs: 10_000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
  maxHeaderSize: 16 * 1024,
});

export async function safeFetch(input: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const settings = options.settings ?? DEFAULT_NETWORK_SETTINGS;
  const resolver = options.resolver ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  const deadline = Date.now() + (options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs);
  const redirects: RedirectHop[] = [];
  let current = input;
  let previous: URL | undefined;
  let origin: string | undefined;

  const refuse = (url: string, decision: PolicyDecision): SafeFetchRefusal => ({ kind: 'refused', ok: false, url, decision, redirects });
  const fail = (url: string, error: string): SafeFetchError => ({ kind: 'error', ok: false, url, error, redirects });

  for (;;) {
    const checked = checkUrl(current, settings);
    if ('refusal' in checked) return refuse(current, checked.refusal);
    const { url, host } = checked;
    if (previous?.protocol === 'https:' && url.protocol === 'http:') {
      return refuse(url.href, {
        verdict: 'deny',
        rule: 'deny:redirect-downgrade',
        reason: `${previous.href} redirected to plain http (${url.href}); fetch that URL explicitly if it is wanted.`,
      });
    }
    // An IP literal is already classified by checkUrl, and no DNS lookup is needed or done.
    const target: ResolveOutcome = checked.ip
      ? { kind: 'ok', address: host, family: checked.ip.family, checked: [host] }
      : await resolveChecked(host, resolver, settings);
    if (target.kind === 'refused') return refuse(url.href, target.decision);
    if (target.kind === 'error') return fail(url.href, target.error);
    const { address, family } = target;
    if (options.signal?.aborted) return fail(url.href, 'Cancelled.');
    origin ??= url.origin;
    const extra = url.origin === origin ? lowerKeys(options.headers) : {};
    const result = await requestOnce({
      url,
      host,
      address,
      family,
      deadline,
      idleTimeoutMs: options.idleTimeoutMs ?? FETCH_DEFAULTS.idleTimeoutMs,
      maxBytes,
      maxHeaderSize: options.maxHeaderSize ?? FETCH_DEFAULTS.maxHeaderSize,
      headers: {
        'user-agent': options.userAgent ?? 'PatchPilot-fetch',
        accept: 'text/html, text/plain, application/json, */*;q=0.5',
        ...extra,
        // Decompression is ours and capped (gzip bombs): never let a caller's header change it.
        'accept-encoding': 'gzip, deflate, br',
      },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
    });
    if (result.kind === 'error') return fail(url.href, result.error);
    if (result.kind === 'redirect') {
      let next: URL;
      try {
        next = new URL(result.location, url);
      } catch {
        return fail(url.href, `The server redirected to an invalid location "${result.location.slice(0, 200)}".`);
      }
      // Every redirect received is listed, the refused one included, so the model sees where it led.
      redirects.push({ from: url.href, to: next.href, status: result.status, remoteAddress: result.remoteAddress });
      if (redirects.length > maxRedirects) {
        return refuse(next.href, {
          verdict: 'deny',
          rule: 'deny:too-many-redirects',
          reason: `More than ${maxRedirects} redirects; stopped before following ${next.href}.`,
        });
      }
      previous = url;
      current = next.href;
      continue;
    }
    return responseOf(result, url.href, redirects, maxBytes, options);
  }
}

/** The answer for a response that arrived: its body as text, with what was cut or converted noted. */
function responseOf(
  result: Extract<OnceResult, { kind: 'response' }>,
  url: string,
  redirects: RedirectHop[],
  maxBytes: number,
  options: SafeFetchOptions,
): SafeFetchResponse {
  const contentType = headerValue(result.headers['content-type']);
  const { text, note } = bodyToText(result.body, contentType, url, options.rawHtml === true);
  const notes = [note];
  if (result.truncatedBy) notes.push(truncationNote(result.truncatedBy, maxBytes, options));
  const noteText = notes.filter(Boolean).join(' ');
  return {
    kind: 'response',
    ok: result.status >= 200 && result.status < 300,
    status: result.status,
    url,
    contentType,
    text: result.truncatedBy ? `${text}\n\n[${truncationNote(result.truncatedBy, maxBytes, options)}]` : text,
    truncated: result.truncatedBy !== undefined,
    ...(result.truncatedBy ? { truncatedBy: result.truncatedBy } : {}),
    bytes: result.body.length,
    redirects,
    remoteAddress: result.remoteAddress,
    ...(noteText ? { note: noteText } : {}),
  };
}

function lowerKeys(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() !== 'host') out[k.toLowerCase()] = v;
  return out;
}

function headerValue(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

function truncationNote(by: 'size' | 'time' | 'idle', maxBytes: number, options: SafeFetchOptions): string {
  if (by === 'size') return `truncated: the response is larger than ${maxBytes} bytes; only the first ${maxBytes} are shown`;
  if (by === 'time') return `truncated: the response took longer than ${options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs} ms`;
  return `truncated: the server sent nothing for ${options.idleTimeoutMs ?? FETCH_DEFAULTS.idleTimeoutMs} ms`;
}

const TEXTUAL =
  /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ecmascript|x-javascript|ld\+json|rss\+xml|atom\+xml|x-yaml|yaml|toml|x-sh)|[^;]*\+(json|xml))/i;

function bodyToText(body: Buffer, contentType: string, url: string, rawHtml: boolean): { text: string; note?: string } {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  const textual = mime === '' ? !looksBinary(body) : TEXTUAL.test(mime);
  if (!textual) return { text: '', note: `Binary content (${mime || 'unknown type'}, ${body.length} bytes) not shown.` };
  let decoded: string;
  try {
    decoded = new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    decoded = new TextDecoder('utf-8').decode(body);
  }
  const looksHtml = mime === 'text/html' || mime === 'application/xhtml+xml' || (mime === '' && /^\s*<(!doctype html|html)/i.test(decoded));
  return { text: looksHtml && !rawHtml ? htmlToText(decoded, url) : decoded };
}
