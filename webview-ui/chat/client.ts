/** The chat's side of its protocol: the shared typed client over the chat's message map. */
import type { ToHost, ToWebview } from '../../src/protocol/chat';
import { RpcClient, type PushHandlersOf } from '../shared/rpcClient';

export type PushHandlers = PushHandlersOf<ToWebview>;

export class HostClient extends RpcClient<ToHost, ToWebview> {}
