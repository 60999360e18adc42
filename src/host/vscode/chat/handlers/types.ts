import type { ToHost, ToHostType } from '../../../../protocol/chat';
import type { AgentHost } from '../../agent/agentHost';

export interface HandlerContext {
  host: AgentHost;
  log: { warn(message: string): void; info(message: string): void };
}

/** One small handler per request type. */
export type Handler<K extends ToHostType> = (payload: ToHost[K][0], ctx: HandlerContext) => Promise<ToHost[K][1]> | ToHost[K][1];
