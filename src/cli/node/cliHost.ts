import type { Elicitor, Host } from '../../core/ports';
import { findBundledSkillsDir } from '../../core/context';
import { NodeWorkspaceFs } from '../../host/node/nodeWorkspaceFs';
import { NodeTaskRunner } from './nodeTaskRunner';

/** What a CLI command lends its agent: its approver and notifier, where the events go, who answers MCP servers' questions. */
export type CliHostParts = Pick<Host, 'root' | 'approver' | 'notifier' | 'onEvent'> & {
  /** Answers MCP servers' elicitation requests (the terminal, or a declining one headless). */
  elicitor: Elicitor;
};

/** The CLI's Host: the files on disk (confined, atomic), test commands in a child process group, the bundled skills next to the bundle. */
export function cliHost(parts: CliHostParts): Host {
  return {
    ...parts,
    tasks: ({ envAllow, guard }) => new NodeTaskRunner({ envAllow, guard }),
    fs: (root) => new NodeWorkspaceFs(root),
    mcpApproveHint: MCP_APPROVE_HINT,
    hooksApproveHint: HOOKS_APPROVE_HINT,
    // The package's skills/ folder: next to dist/ in the built CLI, up from src/ under tsx.
    bundledSkillsDir: findBundledSkillsDir(__dirname),
  };
}

/** How a CLI user approves the workspace's hooks when no terminal can ask (CI): ahead of the run. */
export const HOOKS_APPROVE_HINT = 'approve them ahead with: patchpilot hooks approve';

/** How a CLI user approves an MCP server when no terminal can ask (CI): ahead of the run. */
export const MCP_APPROVE_HINT = (server: string) => `approve it ahead with: patchpilot mcp approve ${server}`;
