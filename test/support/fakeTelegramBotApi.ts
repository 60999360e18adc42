/**
 * A local stand-in for the Telegram Bot API (plain node:http), enough for a grammY bot on long
 * polling: getMe, deleteWebhook, getUpdates (held open until an update arrives or its timeout),
 * sendMessage, editMessageText, answerCallbackQuery. Requests are `POST /bot<token>/<method>` with a
 * JSON body and answered `{ ok, result }` as the real one does; a wrong token gets 401. The test
 * plays the users: `sendText` and `press` queue updates, `calls` records what the bot sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BotApiCall {
  method: string;
  body: Record<string, any>;
}

interface Waiter {
  offset: number;
  finish(): void;
}

export class FakeTelegramBotApi {
  readonly calls: BotApiCall[] = [];
  private readonly updates: Record<string, unknown>[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<() => void>();
  private nextUpdate = 1;
  private nextMessage = 100;

  private constructor(
    private readonly server: http.Server,
    readonly token: string,
  ) {}

  static async start(token = '123456:TEST-token'): Promise<FakeTelegramBotApi> {
    let api!: FakeTelegramBotApi;
    const server = http.createServer((req, res) => void api.handle(req, res));
    api = new FakeTelegramBotApi(server, token);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  get apiRoot(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A user writes `text` in chat `chatId`: by default a private chat with the user of the same id; `fromUser` makes it a group member. */
  sendText(chatId: number, text: string, fromUser = chatId): void {
    this.push({ message: { message_id: this.nextMessage++, date: now(), chat: chatOf(chatId, fromUser), from: user(fromUser), text } });
  }

  /** A user in `chatId` (by default the one of the private chat, `fromUser` in a group) presses the button carrying `data` under message `messageId`. */
  press(chatId: number, messageId: number, data: string, fromUser = chatId): string {
    const id = `cb${this.nextUpdate}`;
    this.push({
      callback_query: {
        id,
        from: user(fromUser),
        chat_instance: `ci${chatId}`,
        data,
        message: { message_id: messageId, date: now(), chat: chatOf(chatId, fromUser), text: '' },
      },
    });
    return id;
  }

  /** Resolves with the first recorded call that matches, waiting for it (rejects after `ms`). */
  waitForCall(match: (c: BotApiCall) => boolean, ms = 60_000, what = 'a bot call'): Promise<BotApiCall> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.calls.find(match);
        if (!found) return false;
        this.listeners.delete(listener);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(
          new Error(
            `timed out waiting for ${what}; calls: ${JSON.stringify(
              this.calls.map((c) => [c.method, c.body.chat_id, c.body.text]),
              null,
              1,
            )}`,
          ),
        );
      }, ms);
      if (!check()) this.listeners.add(listener);
    });
  }

  async close(): Promise<void> {
    for (const w of this.waiters) w.finish();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private push(update: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdate++, ...update });
    for (const w of [...this.waiters]) w.finish();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (!m) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
    if (m[1] !== this.token) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = m[2]!;
    if (method !== 'getUpdates') this.record({ method, body });
    switch (method) {
      case 'getMe':
        return reply(200, {
          ok: true,
          result: {
            id: 42,
            is_bot: true,
            first_name: 'PatchPilot test',
            username: 'patchpilot_test_bot',
            can_join_groups: false,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
          },
        });
      case 'deleteWebhook':
      case 'answerCallbackQuery':
        return reply(200, { ok: true, result: true });
      case 'sendMessage':
        return reply(200, {
          ok: true,
          result: { message_id: (body.message_id = this.nextMessage++), date: now(), chat: { id: Number(body.chat_id), type: 'private' }, text: body.text },
        });
      case 'editMessageText':
        return reply(200, {
          ok: true,
          result: { message_id: body.message_id, date: now(), chat: { id: Number(body.chat_id), type: 'private' }, text: body.text },
        });
      case 'getUpdates':
        return reply(200, { ok: true, result: await this.pending(body, req) });
      default:
        return reply(404, { ok: false, error_code: 404, description: `Not Found: method ${method}` });
    }
  }

  private record(call: BotApiCall): void {
    this.calls.push(call);
    for (const l of [...this.listeners]) l();
  }

  /** The updates from `offset` on, waiting up to `timeout` seconds for one (long polling). */
  private async pending(body: Record<string, any>, req: http.IncomingMessage): Promise<unknown[]> {
    const offset = Number(body.offset ?? 0);
    const ready = () => this.updates.filter((u) => (u.update_id as number) >= offset).slice(0, Number(body.limit ?? 100));
    if (ready().length || !body.timeout) return ready();
    await new Promise<void>((resolve) => {
      const waiter: Waiter = {
        offset,
        finish: () => {
          this.waiters.delete(waiter);
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(waiter.finish, Number(body.timeout) * 1000);
      req.socket.once('close', waiter.finish);
      this.waiters.add(waiter);
    });
    return ready();
  }
}

const now = () => Math.floor(Date.now() / 1000);
const user = (id: number) => ({ id, is_bot: false, first_name: `user ${id}` });
/** A private chat has the user's id; a chat of another id is a group the user is a member of. */
const chatOf = (chatId: number, fromUser: number) => (chatId === fromUser ? { id: chatId, type: 'private' } : { id: chatId, type: 'group', title: 'a group' });
