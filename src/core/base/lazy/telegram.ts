// The dist/lazy/telegram.js chunk: grammY, the Telegram Bot API client (`patchpilot serve`). Load it with lazyChunk.telegram().
export { Bot, InlineKeyboard } from 'grammy';
