/** The history panel's side of its protocol: typed requests answered by id, typed pushes. */
import type { HistoryToHost, HistoryToHostType, HistoryToWebview, HistoryToWebviewMessage, HistoryToWebviewType } from '../../src/protocol/history';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export type HistoryPushHandlers = { [K in HistoryToWebviewType]?: (payload: HistoryToWebview[K]) => void };

export class HistoryClient {
  readonly api: VsCodeApi = acquireVsCodeApi();
  private next = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  handlers: HistoryPushHandlers = {};

  constructor() {
    window.addEventListener('message', (e: MessageEvent<HistoryToWebviewMessage>) => this.receive(e.data));
  }

  request<K extends HistoryToHostType>(type: K, payload: HistoryToHost[K][0]): Promise<HistoryToHost[K][1]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.api.postMessage({ kind: 'request', id, type, payload });
    });
  }

  private receive(m: HistoryToWebviewMessage): void {
    if (!m || typeof m !== 'object') return;
    if (m.kind === 'response') {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.ok) w.resolve(m.result);
      else w.reject(new Error(m.error));
    } else if (m.kind === 'push') {
      (this.handlers[m.type] as ((p: unknown) => void) | undefined)?.(m.payload);
    }
  }
}
