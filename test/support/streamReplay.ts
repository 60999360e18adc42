/**
 * A loopback server that replays recorded provider replies verbatim: a POST to
 * `<base>/f/<fixture>/...` (`/v1/chat/completions`, `/v1/messages`) gets that file from the folder
 * the server was started on (test/fixtures/streams by default; a fixture may name a sub-folder,
 * `deepseek/deepseek-text.chunks.txt`). How each recording format goes out:
 * - `.sse`: the event stream byte for byte (its leading `: ...` comment lines are valid SSE comments);
 * - `.chunks.txt` (one event's JSON a line, as vercel/ai records them): each line as an SSE event,
 *   `data: <line>`, with `event: <type>` before it when the JSON has a `type` (the Messages API names
 *   every event so); nothing is added after the last line (no `[DONE]`: these recordings have none);
 * - `.json`: a whole (non-streamed) reply body, HTTP 200, `application/json`;
 * - `.http`: `: status:` and `: content-type:` header comments, then the raw body.
 * Requests are kept.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const STREAM_FIXTURES = path.join(__dirname, '..', 'fixtures', 'streams');
/** Recordings from providers' and SDKs' public test suites, one folder per provider (see its README). */
export const PROVIDER_FIXTURES = path.join(__dirname, '..', 'fixtures', 'providers');

export interface ReplayServer {
  base: string;
  /** The base URL a chat-completions client uses for one fixture. */
  urlFor(fixture: string): string;
  /** The base URL an Anthropic client uses for one fixture (the SDK adds `/v1/messages`). */
  anthropicUrlFor(fixture: string): string;
  requests: { fixture: string; body: any }[];
  close(): Promise<void>;
}

/** The HTTP reply a recording stands for. */
export function replayOf(fixture: string, text: string): { status: number; type: string; body: string } {
  if (fixture.endsWith('.http')) {
    const status = Number(/^: status: (\d+)$/m.exec(text)?.[1] ?? 500);
    const type = /^: content-type: (.+)$/m.exec(text)?.[1] ?? 'text/plain';
    return { status, type, body: text.slice(text.indexOf('\n\n') + 2) };
  }
  if (fixture.endsWith('.json')) return { status: 200, type: 'application/json', body: text };
  if (fixture.endsWith('.chunks.txt')) return { status: 200, type: 'text/event-stream', body: chunksAsSse(text) };
  return { status: 200, type: 'text/event-stream', body: text };
}

function chunksAsSse(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const type = (JSON.parse(line) as { type?: unknown }).type;
      return `${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${line}\n\n`;
    })
    .join('');
}

export async function startReplayServer(dir = STREAM_FIXTURES): Promise<ReplayServer> {
  const requests: ReplayServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const match = /^\/f\/([^/]+)\/v1\/(chat\/completions|messages)/.exec(req.url ?? '');
      if (!match) return void res.writeHead(404).end();
      const fixture = decodeURIComponent(match[1]!);
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({ fixture, body: raw ? JSON.parse(raw) : undefined });
      const reply = replayOf(fixture, readFileSync(path.join(dir, fixture), 'utf8'));
      res.writeHead(reply.status, { 'content-type': reply.type, 'cache-control': 'no-cache' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    urlFor: (fixture) => `${base}/f/${encodeURIComponent(fixture)}/v1`,
    anthropicUrlFor: (fixture) => `${base}/f/${encodeURIComponent(fixture)}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
