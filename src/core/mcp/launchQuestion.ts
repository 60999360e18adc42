/**
 * The question a server's start asks (manager.ts): what runs (every argument on its own line; env
 * and header names, never their values), the workspace files approved by content, why it is asked
 * (new, a changed launch, which file changed) and where it runs (the sandbox, or why not).
 */
import type { ActionApprovalRequest } from '../ports';
import { describeLaunch, type McpServerConfig } from '../config/mcpServers';
import type { LaunchFiles } from '../policy/launch';
import type { SandboxVerdict } from './serverSandbox';
import { checkUrl, DEFAULT_NETWORK_SETTINGS } from '../web';
import { hasAuthorizationHeader } from './remote/remoteAuth';

export function launchQuestion(
  name: string,
  config: McpServerConfig,
  files: LaunchFiles,
  changed: string | undefined,
  sandbox: SandboxVerdict,
): ActionApprovalRequest {
  const local = config.transport === 'stdio';
  const where = local ? whereItRuns(sandbox) : '';
  return {
    kind: 'mcp',
    title: `start MCP server "${name}": ${describeLaunch(config)}`,
    reason: changed
      ? `${changed.replace('since it was approved', 'since you approved it')}${local ? `; it runs ${where}` : ''}`
      : local
        ? `a new MCP server: its command runs on this machine, ${where}`
        : `a new MCP server: the agent's tool calls (and the configured headers) go to this URL${privateAddress(config.url) ? '; it is on this machine or a private network (a workspace could use that to reach a local service)' : ''}`,
    detail: launchDetail(config, files, local ? where : undefined),
  };
}

function whereItRuns(v: SandboxVerdict): string {
  return v.sandboxed
    ? "inside PatchPilot's sandbox (workspace writable, home hidden, ignored files masked, protected paths read-only; network allowed)"
    : `outside the sandbox: ${v.why}`;
}

/** What the approval question shows: every argument on its own line; env and header names, not their values (secrets); the named files. */
function launchDetail(c: McpServerConfig, files: LaunchFiles, where: string | undefined): string {
  if (c.transport === 'stdio') {
    return [
      `command: ${c.command}`,
      ...c.args.map((a, i) => `arg ${i + 1}: ${a}`),
      ...(c.cwd ? [`cwd: ${c.cwd}`] : []),
      ...Object.keys(c.env).map((k) => `env: ${k}=...`),
      ...Object.entries(files).map(
        ([rel, h]) => `workspace file (approved by content, protected while configured): ${rel} ${h.startsWith('sha256:') ? h.slice(0, 19) : h}`,
      ),
      ...(where ? [`runs ${where}`] : []),
    ].join('\n');
  }
  return [
    `url: ${c.url}`,
    `transport: ${c.transport === 'sse' ? 'SSE' : 'streamable HTTP (SSE if the server only speaks that)'}`,
    ...Object.keys(c.headers).map((k) => `header: ${k}: ...`),
    ...(privateAddress(c.url) ? [`address: not public (${privateAddress(c.url)})`] : []),
    hasAuthorizationHeader(c.headers)
      ? 'sign-in: the configured Authorization header'
      : 'sign-in: OAuth if the server asks for it (your login, its tokens sent to this server only)',
  ].join('\n');
}

/** Why web_fetch would refuse this URL (loopback, a private range, a local name), or undefined for a public one. */
function privateAddress(url: string): string | undefined {
  const checked = checkUrl(url, DEFAULT_NETWORK_SETTINGS);
  return 'refusal' in checked ? checked.refusal.reason.replace(/\.$/, '') : undefined;
}
