/**
 * The Telegram adapter of core/channels: the Bot API through grammY (long polling, so nothing
 * listens on this machine), the only file that knows the library. `apiRoot` points it at another
 * Bot API server (a self-hosted one, or the tests' fake).
 */
import type { Bot } from 'grammy';
import { lazyChunk } from '../../core/base';
import type { Channel, ChannelQuestion, IncomingMessage } from '../../core/channels';

interface Question extends ChannelQuestion {
  messageId?: number;
  resolve(choice: string): void;
}

export class TelegramChannel implements Channel {
  private readonly bot: Bot;
  private readonly questions = new Map<string, Question>();
  private nextQuestion = 1;

  constructor(token: string, apiRoot?: string) {
    this.bot = new (lazyChunk.telegram().Bot)(token, apiRoot ? { client: { apiRoot } } : {});
  }

  async listen(onMessage: (message: IncomingMessage) => void): Promise<void> {
    this.bot.on('message:text', (ctx) => {
      // A message without a sender (a channel's post) is no person's goal.
      if (ctx.from) onMessage({ chatId: String(ctx.chat.id), senderId: String(ctx.from.id), text: ctx.message.text });
    });
    this.bot.on('callback_query:data', async (ctx) => {
      const [id, choice] = ctx.callbackQuery.data.split(':');
      const question = id ? this.questions.get(id) : undefined;
      const from = ctx.callbackQuery.message?.chat.id;
      // Only the chat the question went to answers it: a forwarded button or an old one does nothing.
      if (!question || String(from) !== question.chatId || !question.choices.some((c) => c.id === choice)) {
        await ctx.answerCallbackQuery({ text: 'This question is not waiting for an answer here.' });
        return;
      }
      // And only a person it names: in a group, the one who sent the goal, not whoever is in the chat.
      if (!question.answerers.has(String(ctx.callbackQuery.from.id))) {
        await ctx.answerCallbackQuery({ text: 'Only the person who sent this goal (or an approver the user named) can answer.', show_alert: true });
        return;
      }
      this.questions.delete(id!);
      const label = question.choices.find((c) => c.id === choice)!.label;
      await ctx.answerCallbackQuery({ text: label });
      await this.settle(question, `answered: ${label}`);
      question.resolve(choice!);
    });
    this.bot.catch((err) => process.stderr.write(`patchpilot serve: telegram: ${err.message}\n`));
    await this.bot.start({ allowed_updates: ['message', 'callback_query'] });
  }

  async close(): Promise<void> {
    // stop() confirms the last update to the server; a server already gone changes nothing here.
    await this.bot.stop().catch(() => undefined);
  }

  async send(chatId: string, text: string): Promise<string> {
    const sent = await this.bot.api.sendMessage(chatId, text);
    return String(sent.message_id);
  }

  async edit(chatId: string, messageId: string, text: string): Promise<void> {
    await this.bot.api.editMessageText(chatId, Number(messageId), text);
  }

  ask(asked: ChannelQuestion, signal: AbortSignal): Promise<string> {
    const id = String(this.nextQuestion++);
    const keyboard = new (lazyChunk.telegram().InlineKeyboard)();
    for (const c of asked.choices) keyboard.text(c.label, `${id}:${c.id}`);
    const entities = (asked.code ?? []).map((c) => ({ type: 'code' as const, offset: c.offset, length: c.length }));
    return new Promise<string>((resolve, reject) => {
      const question: Question = { ...asked, resolve };
      const abandon = () => {
        if (!this.questions.delete(id)) return;
        void this.settle(question, 'no longer waiting (the run stopped)');
        reject(signal.reason instanceof Error ? signal.reason : new Error('the run stopped'));
      };
      if (signal.aborted) return reject(new Error('the run stopped'));
      this.questions.set(id, question);
      signal.addEventListener('abort', abandon, { once: true });
      this.bot.api.sendMessage(asked.chatId, asked.text, { reply_markup: keyboard, ...(entities.length ? { entities } : {}) }).then(
        (sent) => (question.messageId = sent.message_id),
        (err: unknown) => {
          this.questions.delete(id);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** The question's message without its buttons, saying how it ended. */
  private async settle(question: Question, outcome: string): Promise<void> {
    if (question.messageId === undefined) return;
    const entities = (question.code ?? []).map((c) => ({ type: 'code' as const, offset: c.offset, length: c.length }));
    await this.bot.api
      .editMessageText(question.chatId, question.messageId, `${question.text}\n\n-> ${outcome}`, entities.length ? { entities } : {})
      .catch(() => undefined);
  }
}
