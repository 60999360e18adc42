/**
 * What an approval of an MCP server covers, as hashes: how it is launched (command, args, env, cwd;
 * or URL and headers) and each tool's definition (name, title, description, input schema,
 * annotations). A change of any of them after approval (a "rug pull", CVE-2025-54136) gives another
 * hash, so the approval no longer matches and the user is asked again.
 */
import { hash } from '../policy/launch/canonicalHash';
import type { McpServerConfig } from '../config/mcpServers';

export { hash, canonicalJson } from '../policy/launch/canonicalHash';

/** The part of an MCP tool definition the model reads or that changes what a call does. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export function launchFingerprint(config: McpServerConfig): string {
  // alwaysAllow, timeout and disabled only narrow or tune what was approved: not part of the launch.
  const launch =
    config.transport === 'stdio'
      ? { transport: 'stdio', command: config.command, args: config.args, env: config.env, cwd: config.cwd ?? null }
      : { transport: config.transport, url: config.url, headers: config.headers };
  return hash(launch);
}

export function toolFingerprint(tool: McpToolDefinition): string {
  return hash({
    name: tool.name,
    title: tool.title ?? null,
    description: tool.description ?? null,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations ?? null,
  });
}
