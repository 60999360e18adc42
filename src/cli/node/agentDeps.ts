import type { ResolvedConfig } from '../../core/config';
import type { Approver, Elicitor, Notifier } from '../../core/ports';
import { createAgent, type Agent } from '../../core/session';
import { findBundledSkillsDir } from '../../core/context';
import type { AgentEvent } from '../../protocol/agentEvents';
import { NodeTaskRunner } from './nodeTaskRunner';

export interface AgentHostOptions {
  root: string;
  config: ResolvedConfig;
  approver: Approver;
  notifier: Notifier;
  /** Answers MCP servers' elicitation requests (the terminal, or a declining one headless). */
  mcpElicitor: Elicitor;
  onEvent(e: AgentEvent): void;
}

/** The CLI's wiring: the shared core wiring (core/session/agent.ts) with the Node test runner. */
export function createAgentDeps(o: AgentHostOptions): Promise<Agent> {
  // The package's skills/ folder: next to dist/ in the built CLI, up from src/ under tsx.
  return createAgent({
    ...o,
    tasks: ({ envAllow, guard }) => new NodeTaskRunner({ envAllow, guard }),
    mcpApproveHint: MCP_APPROVE_HINT,
    hooksApproveHint: HOOKS_APPROVE_HINT,
    bundledSkillsDir: findBundledSkillsDir(__dirname),
  });
}

/** How a CLI user approves the workspace's hooks when no terminal can ask (CI): ahead of the run. */
export const HOOKS_APPROVE_HINT = 'approve them ahead with: patchpilot hooks approve';

/** How a CLI user approves an MCP server when no terminal can ask (CI): ahead of the run. */
export const MCP_APPROVE_HINT = (server: string) => `approve it ahead with: patchpilot mcp approve ${server}`;
