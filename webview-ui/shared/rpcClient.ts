/**
 * The webview side of a typed protocol (chat and history alike): requests answered by id, pushes
 * to their handlers. `Req` maps a request type to [payload, answer]; `Push` maps a push type to its payload.
 */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

type Incoming =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: string }
  | { kind: 'push'; type: string; payload: unknown };

export type PushHandlersOf<Push> = { [K in keyof Push]?: (payload: Push[K]) => void };

export class RpcClient<Req extends { [K in keyof Req]: [unknown, unknown] }, Push> {
  readonly api: VsCodeApi = acquireVsCodeApi();
  private next = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private handlers: PushHandlersOf<Push> = {};

  constructor() {
    window.addEventListener('message', (e: MessageEvent<Incoming>) => this.receive(e.data));
  }

  /** The pushes' handlers, set once the view they draw into exists. */
  listen(handlers: PushHandlersOf<Push>): void {
    this.handlers = handlers;
  }

  request<K extends keyof Req & string>(type: K, payload: Req[K][0]): Promise<Req[K][1]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.api.postMessage({ kind: 'request', id, type, payload });
    });
  }

  private receive(m: Incoming): void {
    if (!m || typeof m !== 'object') return;
    if (m.kind === 'response') {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.ok) w.resolve(m.result);
      else w.reject(new Error(m.error));
    } else if (m.kind === 'push') {
      const handler = this.handlers[m.type as keyof Push] as ((p: unknown) => void) | undefined;
      handler?.(m.payload);
    }
  }
}
