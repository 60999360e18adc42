import type { Elicitor, Host } from '../../core/ports';
import { defaultUserStateDir } from '../../core/config';
import { findBundledSkillsDir } from '../../core/context';
import { FileSecretStore } from '../../host/node/fileSecretStore';
import { NodeWorkspaceFs } from '../../host/node/nodeWorkspaceFs';
import { NodeTaskRunner } from './nodeTaskRunner';

/** What a CLI command lends its agent: its approver and notifier, where the events go, who answers MCP servers' questions. */
export type CliHostParts = Pick<Host, 'root' | 'approver' | 'notifier' | 'onEvent'> & {
  /** Answers MCP servers' elicitation requests (the terminal, or a declining one headless). */
  elicitor: Elicitor;
};

/** The CLI's Host: the files on disk (confined, atomic), test commands in a child process group, tokens in a 0600 file, the bundled skills next to the bundle. */
export function cliHost(parts: CliHostParts): Host {
  return {
    ...parts,
    tasks: ({ envAllow, guard }) => new NodeTaskRunner({ envAllow, guard }),
    fs: (root) => new NodeWorkspaceFs(root),
    secrets: cliSecretStore(),
    mcpApproveHint: MCP_APPROVE_HINT,
    hooksApproveHint: HOOKS_APPROVE_HINT,
    // The package's skills/ folder: next to dist/ in the built CLI, up from src/ under tsx.
    bundledSkillsDir: findBundledSkillsDir(__dirname),
  };
}

/** The CLI's secrets (remote MCP servers' OAuth tokens): `mcp-oauth.json` in the user's state folder (PATCHPILOT_STATE_HOME), read on every get so processes share it. */
export function cliSecretStore(): FileSecretStore {
  return new FileSecretStore(defaultUserStateDir());
}

/** How a CLI user approves the workspace's hooks when no terminal can ask (CI): ahead of the run. */
export const HOOKS_APPROVE_HINT = 'approve them ahead with: patchpilot hooks approve';

/** How a CLI user approves an MCP server when no terminal can ask (CI): ahead of the run. */
export const MCP_APPROVE_HINT = (server: string) => `approve it ahead with: patchpilot mcp approve ${server}`;
