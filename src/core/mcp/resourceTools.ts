/**
 * The resources of the run's MCP servers, for the model: `list_mcp_resources` names them,
 * `read_mcp_resource` reads one. Offered only when a server of the run lists resources. Reading is
 * what the spec makes resources for (no side effects), so it does not ask; the contents pass the
 * same filter as tool results (contentText.ts, resultFilter.ts): a resource that is an ignored
 * workspace file is withheld, ignored files' lines are redacted.
 */
import { ToolError, ok, type Tool } from '../tools/types';
import type { McpResourceDefinition } from './clientFeatures';

export interface McpResourceAccess {
  /** The servers of this run that list resources, with their lists as of now. */
  resourceServers(): { server: string; resources: readonly McpResourceDefinition[] }[];
  /** The filtered text of one resource. */
  readResource(server: string, uri: string, signal: AbortSignal): Promise<string>;
}

const MAX_LISTED = 200;

export function mcpResourceTools(access: McpResourceAccess): Tool<any>[] {
  const list: Tool<{ server?: string }> = {
    name: 'list_mcp_resources',
    description:
      'List the resources (documents, data) the MCP servers of this workspace offer: server, URI, name and description. Read one with read_mcp_resource.',
    schema: { type: 'object', properties: { server: { type: 'string', description: 'Only this server' } }, additionalProperties: false },
    readOnly: true,
    async run(args) {
      const servers = access.resourceServers().filter((s) => !args.server || s.server === args.server);
      if (args.server && servers.length === 0) throw new ToolError(`no MCP server "${args.server}" with resources (servers: ${names(access)})`);
      const lines: string[] = [];
      for (const s of servers) {
        lines.push(`${s.server}: ${s.resources.length} resource${s.resources.length === 1 ? '' : 's'}`);
        for (const r of s.resources.slice(0, MAX_LISTED))
          lines.push(`  ${r.uri}  ${r.title ?? r.name}${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? ` - ${oneLine(r.description)}` : ''}`);
        if (s.resources.length > MAX_LISTED) lines.push(`  ... and ${s.resources.length - MAX_LISTED} more`);
      }
      return ok(lines.join('\n') || 'no MCP server offers resources');
    },
  };
  const read: Tool<{ server: string; uri: string }> = {
    name: 'read_mcp_resource',
    description: 'Read one resource of an MCP server by its URI (from list_mcp_resources, a resource link in a tool result, or a resource the user attached).',
    schema: {
      type: 'object',
      properties: { server: { type: 'string', description: 'The MCP server' }, uri: { type: 'string', description: 'The resource URI' } },
      required: ['server', 'uri'],
      additionalProperties: false,
    },
    readOnly: true,
    async run(args, ctx) {
      if (!access.resourceServers().some((s) => s.server === args.server))
        throw new ToolError(`no MCP server "${args.server}" with resources (servers: ${names(access)})`);
      try {
        return ok((await access.readResource(args.server, args.uri, ctx.signal)) || '(empty resource)', { server: args.server, uri: args.uri });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw new ToolError(`MCP server "${args.server}" could not read ${args.uri}: ${(err as Error).message}`);
      }
    },
  };
  return [list, read];
}

function names(access: McpResourceAccess): string {
  return (
    access
      .resourceServers()
      .map((s) => s.server)
      .join(', ') || 'none'
  );
}

function oneLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
