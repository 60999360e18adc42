/**
 * What PatchPilot's MCP client offers and follows beyond tools (spec 2025-11-25): the prompts and
 * resources a server lists, its `list_changed` notifications (the lists are fetched again), and
 * elicitation, declared only when the host has someone to ask (an Elicitor). Installed on each new
 * SDK client by McpConnection; knows nothing about approvals.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { lazyChunk } from '../base/lazyChunks';
import type { Elicitor } from '../ports/elicitor';
import { checkUrl, DEFAULT_NETWORK_SETTINGS } from '../web';

export interface McpPromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

export interface McpResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

const MAX_LISTED = 10_000;

/** The client's capabilities: elicitation (form and URL mode) only when someone can answer. */
export function clientCapabilities(elicitor: Elicitor | undefined): ClientCapabilities {
  return elicitor ? { elicitation: { form: {}, url: {} } } : {};
}

/**
 * The server's elicitation requests go to the host's Elicitor, as a form of primitive fields or a link.
 * `calls`: the signals of this client's calls in flight (the run's). A server does not withdraw its
 * request when the call it belongs to is cancelled, so the question ends when every such call was
 * aborted (the run stopped: the chat's card goes away, the server hears `cancel`).
 */
export function installElicitation(client: Client, server: string, elicitor: Elicitor, calls: () => AbortSignal[] = () => []): void {
  client.setRequestHandler(lazyChunk.mcp().ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
    const signal = elicitationSignal(extra.signal, calls());
    return signal.aborted ? { action: 'cancel' } : ask(request.params, signal);
  });
  const ask = async (params: unknown, signal: AbortSignal): Promise<ElicitResult> => {
    const p = params as { mode?: string; message: string; url?: string; elicitationId?: string; requestedSchema?: unknown };
    if (p.mode === 'url') {
      // A link the user's browser would open reaches what this machine reaches: a server must not use
      // the user's click to send a request to a local service or the private network (a router's
      // admin page, a dev server's endpoint). Such a link, or one that is not http(s), is declined unasked.
      if ('refusal' in checkUrl(String(p.url), DEFAULT_NETWORK_SETTINGS)) return { action: 'decline' };
      // The user is shown the link as it will open: parsed and serialized, so whitespace, controls and
      // bidi characters are percent-encoded and a look-alike host is in its punycode form.
      const url = new URL(String(p.url)).href;
      const answer = await elicitor.elicit({ server, mode: 'url', message: p.message, url, elicitationId: String(p.elicitationId) }, signal);
      return answer.action === 'accept' ? { action: 'accept' } : answer;
    }
    const schema = p.requestedSchema && typeof p.requestedSchema === 'object' ? (p.requestedSchema as Record<string, unknown>) : {};
    const answer = await elicitor.elicit({ server, mode: 'form', message: p.message, requestedSchema: schema }, signal);
    return answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : answer;
  };
}

/** Aborted when the server withdraws the request, or when every call in flight was aborted (none in flight: the server's only). */
export function elicitationSignal(server: AbortSignal, calls: readonly AbortSignal[]): AbortSignal {
  if (!calls.length) return server;
  const ended = new AbortController();
  const check = () => {
    if (server.aborted || calls.every((c) => c.aborted)) ended.abort();
  };
  for (const s of [server, ...calls]) s.addEventListener('abort', check, { once: true });
  check();
  return ended.signal;
}

/** `notifications/{tools,prompts,resources}/list_changed`: the named list is fetched again. */
export function installListChanged(client: Client, refresh: (list: 'tools' | 'prompts' | 'resources') => void): void {
  const { ToolListChangedNotificationSchema, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } = lazyChunk.mcp();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => refresh('tools'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => refresh('prompts'));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => refresh('resources'));
}

export async function listPrompts(client: Client, timeout: number): Promise<McpPromptDefinition[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const out: McpPromptDefinition[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : {}, { timeout });
    for (const p of page.prompts)
      out.push({
        name: p.name,
        ...(p.title ? { title: p.title } : {}),
        ...(p.description ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...(a.description ? { description: a.description } : {}), required: a.required === true })),
      });
    cursor = page.nextCursor;
  } while (cursor && out.length < MAX_LISTED);
  return out;
}

export async function listResources(client: Client, timeout: number): Promise<McpResourceDefinition[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const out: McpResourceDefinition[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : {}, { timeout });
    for (const r of page.resources)
      out.push({
        uri: r.uri,
        name: r.name,
        ...(r.title ? { title: r.title } : {}),
        ...(r.description ? { description: r.description } : {}),
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
      });
    cursor = page.nextCursor;
  } while (cursor && out.length < MAX_LISTED);
  return out;
}
