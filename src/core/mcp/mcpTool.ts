/**
 * An MCP server's tool as one of the agent's tools: `mcp__<server>__<tool>` with the server's schema.
 * Each call needs the user's approval unless the tool is in the server's alwaysAllow, in every
 * approval mode (the call runs outside PatchPilot's policy and sandbox). The definition must still
 * be the one the user approved: a server that changed it after a reconnect gets a refusal, not a call.
 * A failure (server gone, timeout, error result) is a failed tool result the model reads.
 * Calls pass the same filters as commands (resultFilter.ts): an argument naming an ignored path
 * asks even for an always-allowed tool, and results are redacted of ignored files' contents.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { briefArgs } from '../base/truncate';
import { auditProtectedChanges } from '../tools/gate';
import { describeProtectedChanges, type ProtectedChange } from '../sandbox/protectedGuard';
import { fail, ok, type Tool, type ToolSchema } from '../tools/types';
import type { McpConnection } from './connection';
import { toolFingerprint, type McpToolDefinition } from './fingerprint';
import { filteredText, type McpCallGuard } from './resultFilter';

const MAX_DESCRIPTION_CHARS = 2_000;

export interface McpToolOptions {
  exposedName: string;
  server: string;
  definition: McpToolDefinition;
  /** The fingerprint the user approved (or that was recorded when the server was first approved). */
  approved: string;
  alwaysAllow: boolean;
  connection: McpConnection;
  /** Ignored-path and redaction filters (absent only in tests of the bare tool). */
  callGuard?: McpCallGuard;
  /** A local server (whether sandboxed), whose calls may touch the workspace; undefined for a remote one. */
  local?: { sandboxed: boolean };
}

export function createMcpTool(o: McpToolOptions): Tool<Record<string, unknown>> {
  const d = o.definition;
  const about = (d.description ?? d.title ?? '').trim();
  return {
    name: o.exposedName,
    description: `${about.length > MAX_DESCRIPTION_CHARS ? `${about.slice(0, MAX_DESCRIPTION_CHARS)}...` : about || `The ${d.name} tool`} (MCP server "${o.server}", tool "${d.name}")`,
    schema: modelSchema(d.inputSchema),
    readOnly: false,
    foreignSchema: true,
    async run(args, ctx) {
      const live = o.connection.tools.find((t) => t.name === d.name);
      if (!live || toolFingerprint(live) !== o.approved) {
        return fail(
          live
            ? `MCP server "${o.server}" changed the definition of ${d.name} since the user approved it; it is withheld until they approve it again (asked at the next run's start).`
            : `MCP server "${o.server}" no longer offers ${d.name}.`,
        );
      }
      const title = `MCP ${o.server}.${d.name} ${briefArgs(args)}`.trim();
      const hidden = o.callGuard?.ignoredArguments(args) ?? [];
      if (hidden.length > 0) {
        // read_file refuses these; an MCP server reading them for the model needs the user's yes, alwaysAllow or not.
        await ctx.ask(
          { kind: 'mcp', title, reason: `a tool of MCP server "${o.server}"`, detail: JSON.stringify(args, null, 2) },
          {
            verdict: 'ask',
            rule: 'ask:mcp-ignored-path',
            reason: `the arguments name ${hidden.join(', ')}, which .patchpilotignore (or denyPaths) hides from the agent.`,
          },
        );
      } else if (o.alwaysAllow) {
        ctx.emit?.({
          type: 'policy',
          kind: 'command',
          subject: title,
          decision: { verdict: 'allow', rule: 'allow:mcp-always-allow', reason: `"${d.name}" is in the alwaysAllow list of MCP server "${o.server}".` },
        });
      } else {
        await ctx.ask(
          { kind: 'mcp', title, reason: `a tool of MCP server "${o.server}"`, detail: JSON.stringify(args, null, 2) },
          {
            verdict: 'ask',
            rule: 'ask:mcp-tool',
            reason: `MCP tools run outside PatchPilot's policy${o.local?.sandboxed ? '' : ' and sandbox'}; only those in the server's alwaysAllow list run without asking.`,
          },
        );
      }
      let result: CallToolResult;
      let text: string;
      let protectedChanges: ProtectedChange[] = [];
      try {
        const call = () => o.connection.callTool(d.name, args, ctx.signal);
        if (o.callGuard) ({ result, text, protectedChanges } = await o.callGuard.guarded(call, o.local));
        else text = resultText((result = await call()));
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        return fail(`MCP server "${o.server}" could not complete ${d.name}: ${o.connection.describeFailure(err)}`, { server: o.server, tool: d.name });
      }
      auditProtectedChanges(ctx, { protectedChanges });
      const guarded = describeProtectedChanges(protectedChanges);
      // Whole: a long result is cut as it enters the conversation (base/outputCut.ts), and kept for read_file.
      const body = text + (guarded ? `\n\n${guarded}` : '');
      return result.isError
        ? fail(body.trim() || `${d.name} reported an error without text`, { server: o.server, tool: d.name })
        : ok(body.trim() ? body : '(no output)', { server: o.server, tool: d.name });
    },
  };
}

/** The server's input schema as the model and the registry take it: an object schema without a `$schema` draft marker. */
export function modelSchema(input: Record<string, unknown> | undefined): ToolSchema {
  const { $schema: _draft, ...rest } = input ?? {};
  const properties = rest.properties && typeof rest.properties === 'object' ? (rest.properties as Record<string, unknown>) : {};
  return { ...rest, type: 'object', properties };
}

/** Text for the model without filters: text parts as they are, everything else named and described, never dumped as base64. */
export function resultText(result: CallToolResult): string {
  return filteredText(result, { redact: (text) => ({ text, count: 0 }) }, () => undefined);
}
