/**
 * One HTTP(S) request to an address that was checked before: the socket's `lookup` answers only
 * that address, so no second DNS resolution (DNS rebinding) can change where we connect. TLS
 * keeps the host name for SNI and certificate checks. Body reading is capped in bytes (raw and
 * decompressed), total time and idle time.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';

export interface OnceRequest {
  url: URL;
  /** Host name without brackets: SNI and certificate name. */
  host: string;
  address: string;
  family: 4 | 6;
  deadline: number;
  idleTimeoutMs: number;
  maxBytes: number;
  maxHeaderSize: number;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** Extra CA certificates (PEM) to trust, e.g. a corporate proxy's; tests use a self-signed one. */
  ca?: string | readonly string[];
}

export type OnceResult =
  | { kind: 'redirect'; status: number; location: string; remoteAddress: string }
  | {
      kind: 'response';
      status: number;
      headers: http.IncomingHttpHeaders;
      remoteAddress: string;
      body: Buffer;
      rawBytes: number;
      truncatedBy?: 'size' | 'time' | 'idle';
    }
  | { kind: 'error'; error: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_ENCODINGS = 2;

export function requestOnce(req: OnceRequest): Promise<OnceResult> {
  return new Promise((resolve) => new OnceExchange(req, resolve).start());
}

/**
 * One request and its answer: the timers (total, idle), the cancel signal and the response's
 * reading share one state, and the first of them to end it settles the result (later ones are ignored).
 */
class OnceExchange {
  private settled = false;
  private remoteAddress = '';
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly cleanups: (() => void)[] = [];
  private idle: NodeJS.Timeout | undefined;
  /** What a timeout does: an error before the headers came, a cut body once they did. */
  private onTimeout: (why: 'time' | 'idle') => void = (why) =>
    this.finish({
      kind: 'error',
      error:
        why === 'time' ? 'Timed out before the response headers arrived.' : `No data for ${this.req.idleTimeoutMs} ms before the response headers arrived.`,
    });
  private readonly request: http.ClientRequest;
  private readonly onAbort = () => this.finish({ kind: 'error', error: 'Cancelled.' });

  constructor(
    private readonly req: OnceRequest,
    private readonly resolve: (result: OnceResult) => void,
  ) {
    const isHttps = req.url.protocol === 'https:';
    this.request = (isHttps ? https : http).request(requestOptions(req, isHttps));
  }

  start(): void {
    const { req, request } = this;
    if (req.signal?.aborted) return this.onAbort();
    req.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timers.push(setTimeout(() => this.onTimeout('time'), Math.max(0, req.deadline - Date.now())));
    this.bumpIdle();
    request.on('socket', (socket) => {
      socket.on('connect', () => {
        this.remoteAddress = socket.remoteAddress ?? '';
        this.bumpIdle();
      });
      socket.on('secureConnect', () => (this.remoteAddress = socket.remoteAddress ?? this.remoteAddress));
    });
    request.on('error', (e: NodeJS.ErrnoException) => {
      const msg = e.code === 'HPE_HEADER_OVERFLOW' ? `Response headers exceed ${req.maxHeaderSize} bytes.` : `${e.code ? `${e.code}: ` : ''}${e.message}`;
      this.finish({ kind: 'error', error: `Request to ${req.url.origin} (${req.address}) failed: ${msg}` });
    });
    request.on('response', (res) => this.response(res));
    request.end();
  }

  private finish(result: OnceResult): void {
    if (this.settled) return;
    this.settled = true;
    for (const t of this.timers) clearTimeout(t);
    if (this.idle) clearTimeout(this.idle);
    this.req.signal?.removeEventListener('abort', this.onAbort);
    this.request.destroy();
    for (const c of this.cleanups) c();
    this.resolve(result);
  }

  private bumpIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.onTimeout('idle'), this.req.idleTimeoutMs);
  }

  /** The headers came: a redirect ends here; otherwise the body is decoded and read up to the caps. */
  private response(res: http.IncomingMessage): void {
    this.bumpIdle();
    this.remoteAddress = res.socket?.remoteAddress ?? this.remoteAddress;
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && typeof location === 'string') {
      return this.finish({ kind: 'redirect', status, location, remoteAddress: this.remoteAddress });
    }
    const decoder = buildDecoder(res.headers['content-encoding']);
    if (typeof decoder === 'string') return this.finish({ kind: 'error', error: decoder });
    this.readBody(res, status, decoder);
  }

  private readBody(res: http.IncomingMessage, status: number, decoder: zlib.Gunzip[]): void {
    const { req } = this;
    const chunks: Buffer[] = [];
    let decoded = 0;
    let raw = 0;
    const done = (truncatedBy?: 'size' | 'time' | 'idle') =>
      this.finish({
        kind: 'response',
        status,
        headers: res.headers,
        remoteAddress: this.remoteAddress,
        body: Buffer.concat(chunks),
        rawBytes: raw,
        ...(truncatedBy ? { truncatedBy } : {}),
      });
    this.onTimeout = (why) => done(why);
    // Raw bytes are capped too (a little above the decoded cap, for encodings that grow).
    const rawCap = req.maxBytes + 64 * 1024;
    res.on('data', (chunk: Buffer) => {
      raw += chunk.length;
      this.bumpIdle();
      if (raw > rawCap) done('size');
    });
    let out: Readable = res;
    for (const stage of decoder) {
      stage.on('error', (e) => this.finish({ kind: 'error', error: `Could not decode the response body: ${e.message}` }));
      this.cleanups.push(() => stage.destroy());
      out = out.pipe(stage);
    }
    out.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      const room = req.maxBytes - decoded;
      if (chunk.length > room) {
        // Anything past the cap (even one byte after an exact fit) means the body was cut.
        chunks.push(chunk.subarray(0, room));
        decoded += room;
        return done('size');
      }
      chunks.push(chunk);
      decoded += chunk.length;
    });
    out.on('end', () => done());
    res.on('error', (e) => this.finish({ kind: 'error', error: `The response broke off: ${e.message}` }));
    res.on('aborted', () => this.finish({ kind: 'error', error: 'The server closed the connection mid-response.' }));
  }
}

/** The request's options: the checked address pinned (no second lookup), TLS names and CAs for https. */
function requestOptions(req: OnceRequest, isHttps: boolean): https.RequestOptions {
  const pinnedLookup = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    // Node asks with all:true when happy-eyeballs is on; answer only the checked address either way.
    if (opts && opts.all) cb(null, [{ address: req.address, family: req.family }]);
    else cb(null, req.address, req.family);
  }) as unknown as LookupFunction;

  const options: https.RequestOptions = {
    method: 'GET',
    host: req.host,
    port: req.url.port || (isHttps ? 443 : 80),
    path: `${req.url.pathname}${req.url.search}`,
    headers: { ...req.headers, host: req.url.host },
    lookup: pinnedLookup,
    family: req.family,
    agent: false,
    maxHeaderSize: req.maxHeaderSize,
    insecureHTTPParser: false,
  };
  if (isHttps) {
    const isIpHost = req.host.includes(':') || /^[\d.]+$/.test(req.host);
    if (!isIpHost) options.servername = req.host;
    if (req.ca) options.ca = req.ca as string[];
  }
  return options;
}

/** zlib streams for the Content-Encoding list (applied in reverse order); a string is an error. */
function buildDecoder(header: string | undefined): zlib.Gunzip[] | string {
  if (!header) return [];
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  if (codings.length > MAX_ENCODINGS) return `Refusing ${codings.length} stacked content encodings.`;
  const stages: zlib.Gunzip[] = [];
  for (const coding of codings.reverse()) {
    // Small chunks keep memory bounded: a bomb is cut after the cap, never inflated whole.
    const opts = { chunkSize: 16 * 1024 };
    if (coding === 'gzip' || coding === 'x-gzip') stages.push(zlib.createGunzip(opts));
    else if (coding === 'deflate') stages.push(zlib.createInflate(opts));
    else if (coding === 'br') stages.push(zlib.createBrotliDecompress({ chunkSize: 16 * 1024 }) as unknown as zlib.Gunzip);
    else return `Unsupported content encoding "${coding}".`;
  }
  return stages;
}
