import type { ToHost, ToHostType } from '../../../../protocol/chat';
import type { ChatController } from '../controller/chatController';

export interface HandlerContext {
  host: ChatController;
  log: { warn(message: string): void; info(message: string): void };
}

/** One small handler per request type. */
export type Handler<K extends ToHostType> = (payload: ToHost[K][0], ctx: HandlerContext) => Promise<ToHost[K][1]> | ToHost[K][1];
