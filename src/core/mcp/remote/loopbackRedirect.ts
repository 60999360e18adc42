/**
 * The redirect end of a login (RFC 8252 §7.3): an HTTP listener on 127.0.0.1 with a port the OS
 * picks, for this one login. It accepts one request on /callback carrying the `state` this login
 * sent (anything else gets a 404 and is not the answer), shows a short page, and hands back the
 * code or the authorization server's error. Closed when the login ends, times out or is cancelled.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback` */
  redirectUrl: string;
  /** The value the authorization request carries and the callback must return. */
  state: string;
  /** The authorization code, once the browser comes back; rejects on an error answer, timeout or cancel. */
  code: Promise<string>;
  close(): Promise<void>;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

export async function startLoopbackRedirect(o: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<LoopbackRedirect> {
  const state = randomBytes(16).toString('base64url');
  let settle!: { resolve(code: string): void; reject(err: Error): void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => undefined); // the caller may stop listening first (a refresh made the login unnecessary)
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback' || url.searchParams.get('state') !== state) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const error = url.searchParams.get('error');
    const got = url.searchParams.get('code');
    res.writeHead(error || !got ? 400 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    if (error || !got) {
      const description = url.searchParams.get('error_description');
      res.end(PAGE('Login failed', 'PatchPilot was not given access. You can close this tab.'));
      settle.reject(new Error(`the authorization server refused the login: ${error ?? 'no code'}${description ? ` (${description})` : ''}`));
    } else {
      res.end(PAGE('Logged in', 'PatchPilot has access now. You can close this tab.'));
      settle.resolve(got);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const timer = setTimeout(
    () => settle.reject(new Error(`no answer from the browser within ${Math.round((o.timeoutMs ?? 300_000) / 1000)} s`)),
    o.timeoutMs ?? 300_000,
  );
  timer.unref();
  const onAbort = () => settle.reject(new Error('the login was cancelled'));
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const close = async () => {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { redirectUrl: `http://127.0.0.1:${port}/callback`, state, code, close };
}
