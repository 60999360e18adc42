/**
 * A loopback server speaking Anthropic's Messages API as it streams: each POST /v1/messages gets
 * the next scripted answer, a recorded SSE stream (event/data lines as the documentation shows
 * them), an HTTP error with its JSON body and headers, or silence. Every request is kept (headers,
 * raw body text, parsed body) so tests can check what the real SDK sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type AnthropicAnswer = { sse: string } | { status: number; body: unknown; headers?: Record<string, string> } | { hang: true };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: Record<string, any>;
}

export class AnthropicServer {
  readonly requests: RecordedRequest[] = [];
  private readonly hung = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    private readonly answers: AnthropicAnswer[],
  ) {}

  static async start(answers: AnthropicAnswer[]): Promise<AnthropicServer> {
    let self: AnthropicServer | undefined;
    const server = createServer((req, res) => void self!.handle(req, res));
    self = new AnthropicServer(server, [...answers]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  /** The base URL as a user would set it (the SDK adds /v1/messages). */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.url}` } }));
      return;
    }
    this.requests.push({ path: req.url, headers: req.headers, raw, body: JSON.parse(raw) });
    const answer = this.answers.shift();
    if (!answer) {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'the script has no more answers' } }));
      return;
    }
    if ('hang' in answer) {
      this.hung.add(res);
      return;
    }
    if ('status' in answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) }).end(JSON.stringify(answer.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(answer.sse);
  }

  async close(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A recorded stream from test/support/anthropicRecordings, with `{{name}}` placeholders filled in. */
export function recording(name: string, fill: Record<string, string> = {}): string {
  const text = readFileSync(path.join(__dirname, 'anthropicRecordings', `${name}.sse`), 'utf8');
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in fill)) throw new Error(`recording ${name} needs a value for {{${key}}}`);
    return fill[key]!;
  });
}

/** Serializes events to SSE as the API sends them: `event: TYPE` then `data: JSON`, a blank line after each. */
export function sse(events: { type: string; [k: string]: unknown }[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** A whole reply: optional thinking (with its signature), text, tool calls, a stop reason and usage. */
export function reply(o: {
  thinking?: { text: string; signature: string };
  redacted?: string;
  text?: string;
  tools?: { id: string; name: string; input: Record<string, unknown> }[];
  usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  stop?: string;
}): string {
  const events: { type: string; [k: string]: unknown }[] = [];
  const usage = o.usage ?? { input_tokens: 10, output_tokens: 1 };
  events.push({
    type: 'message_start',
    message: {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  let index = 0;
  if (o.redacted) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: o.redacted } }, { type: 'content_block_stop', index });
    index++;
  }
  if (o.thinking) {
    const half = Math.ceil(o.thinking.text.length / 2);
    events.push(
      { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: o.thinking.text.slice(0, half) } },
      { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: o.thinking.text.slice(half) } },
      { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: o.thinking.signature } },
      { type: 'content_block_stop', index },
    );
    index++;
  }
  if (o.text) {
    events.push(
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index, delta: { type: 'text_delta', text: o.text } },
      { type: 'content_block_stop', index },
    );
    index++;
  }
  for (const tool of o.tools ?? []) {
    const json = JSON.stringify(tool.input);
    const cut = Math.floor(json.length / 2);
    events.push(
      { type: 'content_block_start', index, content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} } },
      { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(0, cut) } },
      { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(cut) } },
      { type: 'content_block_stop', index },
    );
    index++;
  }
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: o.stop ?? (o.tools?.length ? 'tool_use' : 'end_turn'), stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
    { type: 'message_stop' },
  );
  return sse(events);
}

/** The API's error body. */
export const apiError = (type: string, message: string) => ({ type: 'error', error: { type, message } });
