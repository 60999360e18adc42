/**
 * A whole Messages API reply where a stream was asked for: a proxy or gateway that ignores
 * `stream: true` answers one `message` object as `application/json`. The SDK's event parser reads no
 * event in it, so the reply was thrown away and the request retried until the retries ran out. Here
 * the object becomes the event stream it stands for, in the wire's own order (message_start, each
 * block's start, deltas and stop, message_delta, message_stop): text, thinking with its signature
 * (sent back unchanged in a tool loop), tool inputs, the stop reason with its details and the usage
 * (cache reads and writes included) all kept. Used through jsonReply.ts acceptingJsonReplies.
 */

type Block = { type?: unknown; [k: string]: unknown };
type Event = { type: string; [k: string]: unknown };

/** The SSE text of the message's events (or of its error); undefined when the body is neither. */
export function messageAsSse(text: string): string | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  // An error object with status 200 (some gateways): the stream's own error event, classified as one.
  if (value?.type === 'error' && value.error && typeof value.error === 'object') return `event: error\ndata: ${JSON.stringify(value)}\n\n`;
  if (!value || value.type !== 'message' || !Array.isArray(value.content)) return undefined;
  const usage = (value.usage ?? {}) as Record<string, unknown>;
  const events: Event[] = [
    { type: 'message_start', message: { ...value, content: [], stop_reason: null, stop_sequence: null, usage } },
    ...(value.content as Block[]).flatMap((block, index) => blockEvents(block, index)),
    {
      type: 'message_delta',
      delta: {
        stop_reason: value.stop_reason ?? null,
        stop_sequence: value.stop_sequence ?? null,
        ...(value.stop_details ? { stop_details: value.stop_details } : {}),
      },
      usage: { output_tokens: typeof usage.output_tokens === 'number' ? usage.output_tokens : 0 },
    },
    { type: 'message_stop' },
  ];
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** One content block as its start, deltas and stop: what a stream of the same reply would carry. */
function blockEvents(block: Block, index: number): Event[] {
  const delta = (d: Record<string, unknown>): Event => ({ type: 'content_block_delta', index, delta: d });
  const start = (contentBlock: Record<string, unknown>): Event => ({ type: 'content_block_start', index, content_block: contentBlock });
  const stop: Event = { type: 'content_block_stop', index };
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (block.type) {
    case 'text':
      return [start({ ...block, text: '' }), ...(str(block.text) ? [delta({ type: 'text_delta', text: block.text })] : []), stop];
    case 'thinking':
      return [
        start({ type: 'thinking', thinking: '', signature: '' }),
        ...(str(block.thinking) ? [delta({ type: 'thinking_delta', thinking: block.thinking })] : []),
        ...(str(block.signature) ? [delta({ type: 'signature_delta', signature: block.signature })] : []),
        stop,
      ];
    case 'tool_use': {
      const input = block.input && typeof block.input === 'object' ? JSON.stringify(block.input) : '';
      return [start({ ...block, input: {} }), ...(input ? [delta({ type: 'input_json_delta', partial_json: input })] : []), stop];
    }
    default:
      // redacted_thinking whole; a block this client does not know is started and named in the reply.
      return [start(block), stop];
  }
}
