/** Real HTTP(S) servers on loopback for the safeFetch integration tests. */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LocalServer {
  port: number;
  requests: string[];
  /** Connections the server saw close, for "the client hung up" assertions. */
  closedSockets: () => number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler, opts: { host?: string; port?: number; tls?: { key: string; cert: string } } = {}): Promise<LocalServer> {
  const requests: string[] = [];
  let closed = 0;
  const wrapped: Handler = (req, res) => {
    requests.push(`${req.method} ${req.url} host=${req.headers.host}`);
    handler(req, res);
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, wrapped) : http.createServer(wrapped);
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => {
      sockets.delete(s);
      closed++;
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    closedSockets: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A throw-away self-signed certificate for `name`, made with the openssl CLI. */
export function selfSignedCert(name: string): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-cert-'));
  try {
    const key = path.join(dir, 'k.pem');
    const cert = path.join(dir, 'c.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name}`,
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
