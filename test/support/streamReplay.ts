/**
 * A loopback server that replays recorded provider replies from test/fixtures/streams: a request to
 * `<base>/f/<fixture>/v1/chat/completions` gets that file. `.sse` files are served as an event
 * stream (their leading `: ...` comment lines are valid SSE comments and go out too); `.http` files
 * carry `: status:` and `: content-type:` header comments, then the raw body. Requests are kept.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const STREAM_FIXTURES = path.join(__dirname, '..', 'fixtures', 'streams');

export interface ReplayServer {
  base: string;
  /** The base URL a client uses for one fixture. */
  urlFor(fixture: string): string;
  requests: { fixture: string; body: any }[];
  close(): Promise<void>;
}

export async function startReplayServer(dir = STREAM_FIXTURES): Promise<ReplayServer> {
  const requests: ReplayServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const match = /^\/f\/([^/]+)\/v1\/chat\/completions/.exec(req.url ?? '');
      if (!match) return void res.writeHead(404).end();
      const fixture = decodeURIComponent(match[1]!);
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({ fixture, body: raw ? JSON.parse(raw) : undefined });
      const text = readFileSync(path.join(dir, fixture), 'utf8');
      if (fixture.endsWith('.http')) {
        const status = Number(/^: status: (\d+)$/m.exec(text)?.[1] ?? 500);
        const type = /^: content-type: (.+)$/m.exec(text)?.[1] ?? 'text/plain';
        const body = text.slice(text.indexOf('\n\n') + 2);
        res.writeHead(status, { 'content-type': type }).end(body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    urlFor: (fixture) => `${base}/f/${encodeURIComponent(fixture)}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
