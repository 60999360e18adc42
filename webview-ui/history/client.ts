/** The history panel's side of its protocol: the shared typed client over the panel's message map. */
import type { HistoryToHost, HistoryToWebview } from '../../src/protocol/history';
import { RpcClient } from '../shared/rpcClient';

export class HistoryClient extends RpcClient<HistoryToHost, HistoryToWebview> {}
