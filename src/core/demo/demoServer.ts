/**
 * The demo model as a real OpenAI-compatible endpoint on 127.0.0.1 (any free port): GET /v1/models
 * and POST /v1/chat/completions, streamed or not, so a newcomer's first run goes through the very
 * client, retries, streaming and tool-call assembly a real model uses. Loopback only; no key.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEMO_MODEL_ID, DEMO_PLAIN_TEXT, nextDemoReply } from './demoScript';
import { readBody, sendJson } from './httpJson';
import { completionBody, streamChunks, usageFor } from './wireReply';
import { errorMessage } from '../base/errors';

/** A short pause between streamed chunks, so the reply visibly streams as a real one does. */
const CHUNK_DELAY_MS = 12;

export interface DemoModelServer {
  /** Ends in `/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  close(): Promise<void>;
}

export async function startDemoModelServer(options: { chunkDelayMs?: number } = {}): Promise<DemoModelServer> {
  const delay = options.chunkDelayMs ?? CHUNK_DELAY_MS;
  const sockets = new Set<Socket>();
  let served = 0;
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `demo model: ${errorMessage(err)}`, type: 'server_error' } });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    if (req.method === 'GET' && url.pathname.endsWith('/models')) {
      return sendJson(res, 200, { object: 'list', data: [{ id: DEMO_MODEL_ID, object: 'model', created: 0, owned_by: 'patchpilot-demo' }] });
    }
    if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
      return sendJson(res, 404, { error: { message: `demo model: no route ${req.method} ${url.pathname}`, type: 'not_found' } });
    }
    let body: { messages?: unknown; tools?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } };
    try {
      body = JSON.parse(raw);
    } catch {
      return sendJson(res, 400, { error: { message: 'demo model: the request body is not JSON', type: 'invalid_request_error' } });
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    // Requests without tools are the fast model's chores (insights, summaries): plain text, labelled.
    const reply = Array.isArray(body.tools) && body.tools.length > 0 ? nextDemoReply(messages) : { text: DEMO_PLAIN_TEXT };
    const ctx = { id: `chatcmpl-demo-${++served}`, model: DEMO_MODEL_ID, turn: served, created: Math.floor(Date.now() / 1000) };
    if (body.stream !== true) return sendJson(res, 200, completionBody(reply, ctx, usageFor(reply, body)));
    const chunks = streamChunks(reply, ctx, body.stream_options?.include_usage === true ? usageFor(reply, body) : undefined);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const [i, chunk] of chunks.entries()) {
      if (i > 0 && delay > 0) await new Promise((r) => setTimeout(r, delay));
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    model: DEMO_MODEL_ID,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
