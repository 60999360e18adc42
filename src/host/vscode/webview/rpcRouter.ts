import { errorMessage } from '../../../core/base';

/** What a webview's validator returns (src/protocol/shapeValidator.ts). */
type Checked<M> = { ok: true; message: M } | { ok: false; reason: string };

interface RequestMessage {
  id: number;
  type: string;
  payload: unknown;
}

/** A response as both webviews' protocols shape it. */
export type RpcResponse =
  { kind: 'response'; id: number; type: string; ok: true; result: unknown } | { kind: 'response'; id: number; type: string; ok: false; error: string };

/**
 * The host side of a webview's typed protocol, for the chat and the history panel alike. Every
 * message passes the protocol's validator first; what fails is dropped and logged with no answer (a
 * forged message learns nothing). A valid one goes to its one small handler; the answer, or the
 * error's message, goes back under the request's id.
 */
export function createRpcRouter<M extends RequestMessage, Ctx extends { log: { warn(message: string): void } }>(
  validate: (raw: unknown) => Checked<M>,
  handlers: { [K in M['type']]: (payload: never, ctx: Ctx) => unknown },
  label: string,
): (raw: unknown, ctx: Ctx, reply: (m: RpcResponse) => void) => Promise<void> {
  return async (raw, ctx, reply) => {
    const checked = validate(raw);
    if (!checked.ok) {
      ctx.log.warn(`${label}: dropped a message: ${checked.reason}`);
      return;
    }
    const { id, type, payload } = checked.message;
    try {
      const handler = handlers[type as M['type']] as (payload: unknown, ctx: Ctx) => unknown;
      const result = await handler(payload, ctx);
      reply({ kind: 'response', id, type, ok: true, result });
    } catch (err) {
      const error = errorMessage(err);
      ctx.log.warn(`${label}: ${type} failed: ${error}`);
      reply({ kind: 'response', id, type, ok: false, error });
    }
  };
}
