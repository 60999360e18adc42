/**
 * A scripted model: a real HTTP server on 127.0.0.1 speaking the OpenAI chat completions API
 * (streaming SSE and plain JSON, GET /v1/models) that replays a Script turn by turn, injects the
 * scripted faults, and records every request for assertions. Not a model: it never improvises.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { completionBody, streamChunks, usageFor, type ChunkContext } from '../../../src/core/demo/wireReply';
import { readBody, sendJson } from '../../../src/core/demo/httpJson';
import { validateScript, type Script, type ScriptedExpectation, type ScriptedFault, type ScriptedTurn } from './script';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON body (or the raw text when it was not JSON). */
  body: any;
  /** The script turn current when the request arrived (-1 for GET /models). */
  turn: number;
  /** 1-based request number within that turn. */
  attempt: number;
  /** Date.now() when the request body had arrived. */
  receivedAt: number;
  /** What the server did: `reply`, a fault kind, `mismatch`, `exhausted`, `stream-options-rejected`. */
  outcome: string;
}

export interface ScriptMismatch {
  turn: number;
  problem: string;
}

const DEFAULT_MODEL_ID = 'scripted-model';

export class ScriptedModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly mismatches: ScriptMismatch[] = [];
  private readonly attempts: number[] = [];
  private turnIndex = 0;
  /** Chat requests being answered right now, and the most at once (parallel callers). */
  inFlight = 0;
  maxInFlight = 0;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    private readonly script: Script,
    readonly baseUrl: string,
  ) {}

  /** Starts on 127.0.0.1 (port 0 = any free port). `baseUrl` ends in `/v1`. */
  static async start(script: Script | ScriptedTurn[], port = 0): Promise<ScriptedModelServer> {
    const s: Script = Array.isArray(script) ? { turns: script } : script;
    const problems = validateScript(s);
    if (problems.length) throw new Error(`invalid script: ${problems.join('; ')}`);
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const { port: bound } = server.address() as AddressInfo;
    const instance = new ScriptedModelServer(server, s, `http://127.0.0.1:${bound}/v1`);
    server.on('connection', (socket) => {
      instance.sockets.add(socket);
      socket.on('close', () => instance.sockets.delete(socket));
    });
    server.on('request', (req, res) => void instance.handle(req, res));
    return instance;
  }

  /** Requests to the chat completions endpoint only. */
  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  /** Requests received while turn `i` was current (faults, retries and the final reply). */
  attemptsForTurn(i: number): number {
    return this.attempts[i] ?? 0;
  }

  /** Back to the first turn with nothing recorded (a retried test starts over on the same server). */
  reset(): void {
    this.requests.length = 0;
    this.mismatches.length = 0;
    this.attempts.length = 0;
    this.turnIndex = 0;
    this.maxInFlight = this.inFlight;
  }

  /** Turns whose reply has been served. */
  get turnsServed(): number {
    return this.turnIndex;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: any = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // kept as text: recorded for the test to see
    }
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
      body,
      turn: -1,
      attempt: 0,
      outcome: '',
      receivedAt: Date.now(),
    };
    this.requests.push(record);

    if (req.method === 'GET' && url.pathname.endsWith('/models')) {
      record.outcome = 'models';
      const id = this.script.modelId ?? DEFAULT_MODEL_ID;
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id, object: 'model', created: 0, owned_by: 'patchpilot-scripted-model', ...this.script.modelFields }],
      });
    }
    if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
      record.outcome = 'not-found';
      return sendJson(res, 404, { error: { message: `scripted model: no route ${req.method} ${url.pathname}`, type: 'not_found' } });
    }

    const route = typeof body === 'object' && body !== null ? this.script.routes?.find((r) => r.match(body)) : undefined;
    if (route) {
      record.outcome = 'route';
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      try {
        await this.respond({ reply: route.reply(body) }, -1, body, undefined, req, res);
      } finally {
        this.inFlight--;
      }
      return;
    }
    const side = typeof body?.model === 'string' ? this.script.modelReplies?.[body.model] : undefined;
    if (side) {
      record.outcome = 'model-reply';
      return this.respond({ reply: side }, -1, body, undefined, req, res);
    }
    const turnNo = this.turnIndex;
    record.turn = turnNo;
    record.attempt = this.attempts[turnNo] = (this.attempts[turnNo] ?? 0) + 1;
    const turn = this.script.turns[turnNo];
    if (!turn) {
      record.outcome = 'exhausted';
      return sendJson(res, 400, {
        error: { message: `scripted model: the script has no turn left (${this.script.turns.length} served)`, type: 'script_exhausted' },
      });
    }
    if (typeof body !== 'object' || body === null) {
      record.outcome = 'mismatch';
      return sendJson(res, 400, { error: { message: 'scripted model: the request body is not JSON', type: 'invalid_request_error' } });
    }
    if (this.script.rejectStreamOptions && body.stream_options !== undefined) {
      record.outcome = 'stream-options-rejected';
      return sendJson(res, 400, {
        error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error' },
      });
    }
    const problem = checkTurn(turn, body, record.headers);
    if (problem) {
      record.outcome = 'mismatch';
      this.mismatches.push({ turn: turnNo, problem });
      return sendJson(res, 400, {
        error: {
          message: `scripted model: request for turn ${turnNo}${turn.label ? ` (${turn.label})` : ''} did not match: ${problem}`,
          type: 'script_mismatch',
        },
      });
    }
    const fault = turn.faults?.[record.attempt - 1];
    record.outcome = fault?.kind ?? 'reply';
    if (!fault) this.turnIndex++;
    await this.respond(turn, turnNo, body, fault, req, res);
  }

  private async respond(
    turn: ScriptedTurn,
    turnNo: number,
    body: any,
    fault: ScriptedFault | undefined,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    switch (fault?.kind) {
      case 'status': {
        const headers: Record<string, string> = { ...(fault.headers ?? {}) };
        if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
        const payload = fault.body ?? { error: { message: `scripted ${fault.status}`, type: 'server_error' } };
        return sendJson(res, fault.status, payload, headers);
      }
      case 'rate-limit':
        return sendJson(
          res,
          429,
          { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
          fault.retryAfterSeconds !== undefined ? { 'retry-after': String(fault.retryAfterSeconds) } : {},
        );
      case 'quota':
        return sendJson(res, 429, {
          error: {
            message: 'You exceeded your current quota, please check your plan and billing details.',
            type: 'insufficient_quota',
            code: 'insufficient_quota',
          },
        });
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        return;
      default:
        break;
    }

    const ctx: ChunkContext = {
      id: `chatcmpl-scripted-${turnNo}`,
      model: this.script.responseModel ?? (typeof body.model === 'string' ? body.model : DEFAULT_MODEL_ID),
      turn: turnNo,
      created: Math.floor(Date.now() / 1000),
    };
    const reply = turn.reply;
    if (reply.delayMs) await this.sleep(reply.delayMs);
    if (res.destroyed || this.closed) return;
    // `ignoreStream`: a server or proxy that answers a streaming request with one JSON completion.
    if (body.stream !== true || this.script.ignoreStream) return sendJson(res, 200, completionBody(reply, ctx, usageFor(reply, body)));

    const includeUsage = body.stream_options?.include_usage === true;
    const chunks = streamChunks(reply, ctx, includeUsage ? usageFor(reply, body) : undefined);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const limit = fault && fault.kind !== 'slow' && 'afterChunks' in fault ? fault.afterChunks : chunks.length;
    const delay = fault?.kind === 'slow' ? fault.chunkDelayMs : (reply.chunkDelayMs ?? 0);
    const slowFrom = fault?.kind === 'slow' ? Math.max(1, fault.afterChunks ?? 1) : 1;
    for (const [i, chunk] of chunks.slice(0, limit).entries()) {
      if (i >= slowFrom && delay > 0) await this.sleep(delay);
      if (res.destroyed || this.closed) return;
      await new Promise<void>((resolve) => res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => resolve()));
    }
    if (res.destroyed || this.closed) return;
    switch (fault?.kind) {
      case 'cut':
        res.socket?.destroy();
        return;
      case 'end-early':
        res.end();
        return;
      case 'stall':
        return; // silent until the client gives up or the server closes
      default:
        res.end('data: [DONE]\n\n');
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }
}

function checkTurn(turn: ScriptedTurn, body: any, headers: Record<string, string>): string | undefined {
  const problem = checkExpectation(turn.expect, body);
  if (problem) return problem;
  if (!turn.check) return undefined;
  try {
    return turn.check({ body, headers }) ?? undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function contentText(message: any): string {
  if (typeof message?.content === 'string') return message.content;
  if (Array.isArray(message?.content)) return message.content.map((p: any) => p?.text ?? '').join('');
  return '';
}

function checkExpectation(expect: ScriptedExpectation | undefined, body: any): string | undefined {
  if (!expect) return undefined;
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1);
  if (expect.model !== undefined && body.model !== expect.model) return `expected model "${expect.model}", got "${body.model}"`;
  if (expect.lastMessageRole && last?.role !== expect.lastMessageRole) {
    return `expected the last message to be "${expect.lastMessageRole}", got "${last?.role}"`;
  }
  if (expect.lastMessageContains !== undefined && !contentText(last).includes(expect.lastMessageContains)) {
    return `expected the last message to contain ${JSON.stringify(expect.lastMessageContains)}`;
  }
  if (expect.anyMessageContains !== undefined && !messages.some((m) => contentText(m).includes(expect.anyMessageContains!))) {
    return `expected some message to contain ${JSON.stringify(expect.anyMessageContains)}`;
  }
  if (expect.toolsInclude) {
    const names = new Set((Array.isArray(body.tools) ? body.tools : []).map((t: any) => t?.function?.name));
    const missing = expect.toolsInclude.filter((n) => !names.has(n));
    if (missing.length) return `expected tools ${missing.join(', ')} to be offered`;
  }
  return undefined;
}
