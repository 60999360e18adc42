/**
 * A whole JSON reply where a stream was asked for: some servers and proxies ignore `stream: true`
 * and answer `content-type: application/json` with one chat.completion object. The SDK's stream
 * parser reads no event in it, so the reply was thrown away and the request retried. Here such a
 * body becomes the one-chunk stream it stands for (the same conversion a local program's reply
 * gets: localProgram/programFetch.ts), followed by `[DONE]`: text, reasoning, tool calls, the
 * finish reason and the usage all kept. The same holds for Anthropic's Messages API, whose whole
 * `message` object becomes its event stream (anthropic/anthropicJsonReply.ts).
 */
import { toSseText } from './localProgram/programFetch';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * `asSse`: the protocol's whole reply as the stream it stands for, undefined when the body is no
 * such reply (it then goes through as it came). Chat completions by default; the Anthropic client
 * passes its own (anthropic/anthropicJsonReply.ts).
 */
export function acceptingJsonReplies(inner: Fetch = fetch, asSse: (body: string) => string | undefined = completionAsSse): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.ok || !/json/i.test(response.headers.get('content-type') ?? '') || !askedToStream(init)) return response;
    const text = await response.text();
    const sse = asSse(text);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (sse === undefined) return new Response(text, { status: response.status, statusText: response.statusText, headers });
    headers.set('content-type', 'text/event-stream');
    return new Response(sse, { status: response.status, statusText: response.statusText, headers });
  };
}

function askedToStream(init: RequestInit | undefined): boolean {
  if (typeof init?.body !== 'string') return false;
  try {
    return (JSON.parse(init.body) as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

/** The completion (or its error) as SSE text, tool calls given the `index` a streamed delta carries; undefined when it is neither. */
export function completionAsSse(text: string): string | undefined {
  let value: { choices?: unknown } | undefined;
  try {
    value = JSON.parse(text) as { choices?: unknown };
  } catch {
    return undefined;
  }
  // An error object with status 200 (some gateways): the stream's own error line, which the SDK throws and classifyError reads.
  const error = (value as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object' && !Array.isArray(value?.choices)) return `data: ${JSON.stringify({ error })}\n\n`;
  if (!value || !Array.isArray(value.choices)) return undefined;
  const choices = value.choices.map((c: Record<string, unknown>) => {
    const message = c?.message as { tool_calls?: Record<string, unknown>[] } | undefined;
    if (!message?.tool_calls) return c;
    return { ...c, message: { ...message, tool_calls: message.tool_calls.map((t, i) => ({ index: i, ...t })) } };
  });
  const data = toSseText(JSON.stringify({ ...value, choices }));
  return data === undefined ? undefined : `${data}data: [DONE]\n\n`;
}
