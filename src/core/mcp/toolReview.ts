/**
 * The user's say over a server's tools: recorded the first time it is reached; a tool new or changed
 * since (tool poisoning, a "rug pull") is asked about, and a declined one withheld (manager.ts).
 */
import type { ActionApprovalRequest } from '../ports';
import type { ToolSourceContext } from '../tools/types';
import type { McpApprovals } from '../approvals/mcpServers';
import { toolFingerprint, type McpToolDefinition } from './fingerprint';

/** The first time a server is reached, its tools are recorded; later, new or changed ones need a yes. Returns the withheld (declined) ones. */
export async function reviewTools(approvals: McpApprovals, server: string, defs: readonly McpToolDefinition[], ctx: ToolSourceContext): Promise<string[]> {
  const approval = approvals.get(server);
  if (!approval) return [];
  if (approval.tools === null) {
    approvals.recordTools(server, fingerprints(defs));
    return [];
  }
  const changed = defs.filter((d) => approval.tools![d.name] !== toolFingerprint(d));
  if (changed.length === 0) {
    return [];
  }
  const yes = await askApproval(
    {
      kind: 'mcp',
      title: `MCP server "${server}" changed its tools since you approved them: ${changed.map((d) => d.name).join(', ')}`,
      reason: "a tool's description reaches the model, so a changed one can carry instructions (tool poisoning); declined tools are not offered",
      detail: changed.map((d) => `${d.name} (${approval.tools![d.name] ? 'changed' : 'new'}): ${d.description ?? d.title ?? '(no description)'}`).join('\n\n'),
    },
    'ask:mcp-tools-changed',
    ctx,
  );
  if (yes) {
    approvals.recordTools(server, { ...approval.tools, ...fingerprints(changed) });
    return [];
  }
  return changed.map((d) => d.name);
}

export async function askApproval(request: ActionApprovalRequest, rule: string, ctx: ToolSourceContext): Promise<boolean> {
  ctx.emit?.({ type: 'policy', kind: 'command', subject: request.title, decision: { verdict: 'ask', rule, reason: request.reason } });
  ctx.emit?.({ type: 'approval-needed', request });
  const answer = await ctx.approver.approveAction(request, ctx.signal);
  ctx.emit?.({
    type: 'approval-answered',
    kind: request.kind,
    approved: answer.approved,
    ...(!answer.approved && answer.unattended !== undefined ? { unattended: true } : {}),
  });
  return answer.approved;
}

export function fingerprints(defs: readonly McpToolDefinition[]): Record<string, string> {
  return Object.fromEntries(defs.map((d) => [d.name, toolFingerprint(d)]));
}
