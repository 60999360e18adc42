/**
 * One status message per run, edited as progress comes in rather than a message per event: the
 * chat stays readable and the service's rate limits (Telegram: about one message a second per
 * chat) are kept. Edits are coalesced to at most one per `intervalMs`; flush() sends what is left.
 */
import type { Channel } from './channel';

const MAX_LINES = 12;
const MAX_CHARS = 3500;

export class StatusMessage {
  private readonly lines: string[] = [];
  private messageId: Promise<string> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastShown = '';
  private lastEdit = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly channel: Channel,
    private readonly chatId: string,
    private readonly title: string,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(line: string): void {
    this.lines.push(line);
    if (this.lines.length > MAX_LINES) this.lines.splice(0, this.lines.length - MAX_LINES);
    if (this.timer) return;
    const wait = Math.max(0, this.lastEdit + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.show();
    }, wait);
  }

  /** Shows the latest lines now (before the run's summary, so the order reads right). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.show();
  }

  private show(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const text = this.text();
      if (text === this.lastShown) return;
      this.lastShown = text;
      this.lastEdit = Date.now();
      try {
        if (!this.messageId) this.messageId = this.channel.send(this.chatId, text);
        else await this.channel.edit(this.chatId, await this.messageId, text);
        await this.messageId;
      } catch (err) {
        this.onError(err);
      }
    });
    return this.writing;
  }

  private text(): string {
    const body = [this.title, ...this.lines].join('\n');
    return body.length > MAX_CHARS ? `...${body.slice(body.length - MAX_CHARS + 3)}` : body;
  }
}
