/** The webview side of the protocol: typed requests answered by id, typed pushes. */
import type { ToHost, ToHostType, ToWebview, ToWebviewMessage, ToWebviewType } from '../../src/protocol/chat';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export type PushHandlers = { [K in ToWebviewType]?: (payload: ToWebview[K]) => void };

export class HostClient {
  readonly api: VsCodeApi = acquireVsCodeApi();
  private next = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private handlers: PushHandlers = {};

  constructor() {
    window.addEventListener('message', (e: MessageEvent<ToWebviewMessage>) => this.receive(e.data));
  }

  /** The pushes' handlers, set once the view they draw into exists. */
  listen(handlers: PushHandlers): void {
    this.handlers = handlers;
  }

  request<K extends ToHostType>(type: K, payload: ToHost[K][0]): Promise<ToHost[K][1]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.api.postMessage({ kind: 'request', id, type, payload });
    });
  }

  private receive(m: ToWebviewMessage): void {
    if (!m || typeof m !== 'object') return;
    if (m.kind === 'response') {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.ok) w.resolve(m.result);
      else w.reject(new Error(m.error));
    } else if (m.kind === 'push') {
      const handler = this.handlers[m.type] as ((p: unknown) => void) | undefined;
      handler?.(m.payload);
    }
  }
}
