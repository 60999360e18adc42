/**
 * Resources attached to a message by @-mention: `@<server>:<uri>` (a server of the workspace's
 * configured ones, the URI as the server lists it). Each one is read (filtered like a tool result,
 * contentText.ts) and appended to the message the model gets as a quote (context/quotedText.ts:
 * opened with a header naming it, closed by a line with a nonce the resource cannot forge, so its
 * text cannot end the quote and go on as the user); the host shows what was attached. A mention of
 * a server that is not configured is left as text.
 */
import { errorMessage } from '../base/errors';
import { quoteExternal } from '../context/quotedText';
import type { McpManager } from './manager';

const MENTION = /(^|\s)@([A-Za-z0-9_.-]+):(\S+)/g;
const MAX_ATTACHMENTS = 10;

export interface ResourceAttachment {
  server: string;
  uri: string;
  chars: number;
}

/** The mentions in `text` whose server is configured, in order, without repeats. */
export function resourceMentions(text: string, servers: readonly string[]): { server: string; uri: string }[] {
  const seen = new Set<string>();
  const out: { server: string; uri: string }[] = [];
  for (const m of text.matchAll(MENTION)) {
    const server = m[2]!;
    const uri = m[3]!.replace(/[.,;)]+$/, '');
    if (!servers.includes(server) || seen.has(`${server} ${uri}`)) continue;
    seen.add(`${server} ${uri}`);
    out.push({ server, uri });
  }
  return out.slice(0, MAX_ATTACHMENTS);
}

/** The message with every mentioned resource's text appended; the attachments, or the first that failed and why. */
export async function attachMentionedResources(
  manager: McpManager,
  text: string,
  signal: AbortSignal,
): Promise<{ text: string; attached: ResourceAttachment[] } | { error: string }> {
  const mentions = resourceMentions(text, manager.serverNames);
  if (mentions.length === 0) return { text, attached: [] };
  const parts = [text];
  const attached: ResourceAttachment[] = [];
  for (const m of mentions) {
    let body: string;
    try {
      body = await manager.readResource(m.server, m.uri, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: `@${m.server}:${m.uri} could not be attached: ${errorMessage(err)}` };
    }
    parts.push(quoteExternal(`attached resource @${m.server}:${m.uri}`, body));
    attached.push({ server: m.server, uri: m.uri, chars: body.length });
  }
  return { text: parts.join('\n\n'), attached };
}
