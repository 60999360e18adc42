/** The protected set's share of MCP: every workspace file a configured server's launch names (policy/launch). */
import type { McpServerConfig } from '../config/mcpServers';
import { launchProtectedGlobs } from '../policy/launch';
import type { ProtectedGlob } from '../policy/path/protectedPaths';
import { asLaunch } from './launchCheck';

export function mcpProtectedGlobs(root: string, servers: Record<string, McpServerConfig>): ProtectedGlob[] {
  return launchProtectedGlobs(
    root,
    Object.entries(servers).map(([name, config]) => ({
      launch: asLaunch(config),
      why: `MCP server "${name}" runs it: its content is part of the server's approval`,
    })),
  );
}
