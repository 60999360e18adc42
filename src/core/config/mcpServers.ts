/**
 * `patchpilot.mcp.servers`: the shape other MCP clients use (Claude Desktop, Cline, Roo, VS Code),
 * so a block copied from their docs works unchanged:
 *   { "<name>": { "command", "args", "env", "cwd", "alwaysAllow": [...] } }   a local process over stdio
 *   { "<name>": { "url", "headers", "alwaysAllow": [...] } }                  streamable HTTP, else SSE
 * Optional: "type" ("stdio" | "http" | "streamable-http" | "sse") to pin the transport, "disabled",
 * "timeout" (seconds per tool call). "autoApprove" (Cline's name) is read as alwaysAllow.
 */

export interface McpCommonConfig {
  /** Tool names (as the server names them) called without asking. */
  alwaysAllow: string[];
  disabled: boolean;
  /** Seconds before a tool call is given up. */
  timeoutSeconds?: number;
}

export interface McpStdioConfig extends McpCommonConfig {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Added to the allowlisted child environment (sandbox/childEnv.ts). */
  env: Record<string, string>;
  /** Working folder; relative to the workspace. Default: the workspace root. */
  cwd?: string;
}

export interface McpHttpConfig extends McpCommonConfig {
  /** `http`: streamable HTTP, falling back to SSE; `sse`: SSE only. */
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = McpStdioConfig | McpHttpConfig;

const KNOWN_KEYS = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers', 'type', 'transportType', 'alwaysAllow', 'autoApprove', 'disabled', 'timeout']);
/** Server names become part of tool names (mcp__<server>__<tool>): keep them readable and unambiguous. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/** Parses the setting's value; every problem at once, each naming the server and the field. */
export function parseMcpServers(value: unknown): { ok: true; value: Record<string, McpServerConfig> } | { ok: false; message: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      message: 'expected an object of servers, e.g. {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}',
    };
  }
  const out: Record<string, McpServerConfig> = {};
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const parsed = parseServer(name, raw);
    if (typeof parsed === 'string') problems.push(`server "${name}": ${parsed}`);
    else out[name] = parsed;
  }
  return problems.length ? { ok: false, message: problems.join('; ') } : { ok: true, value: out };
}

function parseServer(name: string, raw: unknown): McpServerConfig | string {
  if (!NAME.test(name)) return 'a server name is 1-40 letters, digits, "_", "-" or ".", starting with a letter or digit';
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'expected an object with "command" (stdio) or "url" (HTTP)';
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length) return `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (known: ${[...KNOWN_KEYS].join(', ')})`;

  const common = parseCommon(o);
  if (typeof common === 'string') return common;
  const type = o.type ?? o.transportType;
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse'].includes(type as string)) {
    return `"type" must be "stdio", "http", "streamable-http" or "sse", got ${JSON.stringify(type)}`;
  }
  if (o.command !== undefined && o.url !== undefined) return 'give either "command" (a local server) or "url" (a remote one), not both';

  if (o.command !== undefined || type === 'stdio') {
    if (typeof o.command !== 'string' || !o.command.trim()) return '"command" must be a non-empty string';
    if (type !== undefined && type !== 'stdio') return `"type": ${JSON.stringify(type)} needs "url", not "command"`;
    if (o.headers !== undefined) return '"headers" is for HTTP servers ("url")';
    const args = stringList(o.args, 'args');
    if (typeof args === 'string') return args;
    const env = stringMap(o.env, 'env');
    if (typeof env === 'string') return env;
    if (o.cwd !== undefined && (typeof o.cwd !== 'string' || !o.cwd.trim())) return '"cwd" must be a non-empty string';
    return { transport: 'stdio', command: o.command.trim(), args, env, ...(typeof o.cwd === 'string' ? { cwd: o.cwd.trim() } : {}), ...common };
  }

  if (typeof o.url !== 'string') return 'expected "command" (a local server over stdio) or "url" (streamable HTTP or SSE)';
  let url: URL;
  try {
    url = new URL(o.url.trim());
  } catch {
    return `"url" is not a valid URL: ${JSON.stringify(o.url)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"url" must be http(s), got ${url.protocol}`;
  if (url.username || url.password) return '"url" must not carry credentials; put them in "headers"';
  if (o.args !== undefined || o.env !== undefined || o.cwd !== undefined) return '"args", "env" and "cwd" are for local servers ("command")';
  const headers = stringMap(o.headers, 'headers');
  if (typeof headers === 'string') return headers;
  return { transport: type === 'sse' ? 'sse' : 'http', url: url.href, headers, ...common };
}

function parseCommon(o: Record<string, unknown>): McpCommonConfig | string {
  if (o.alwaysAllow !== undefined && o.autoApprove !== undefined) return 'give "alwaysAllow" or "autoApprove", not both';
  const alwaysAllow = stringList(o.alwaysAllow ?? o.autoApprove, o.alwaysAllow !== undefined ? 'alwaysAllow' : 'autoApprove');
  if (typeof alwaysAllow === 'string') return alwaysAllow;
  if (o.disabled !== undefined && typeof o.disabled !== 'boolean') return '"disabled" must be true or false';
  const t = o.timeout;
  if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t <= 0)) return '"timeout" must be a positive number of seconds';
  return { alwaysAllow, disabled: o.disabled === true, ...(typeof t === 'number' ? { timeoutSeconds: t } : {}) };
}

function stringList(v: unknown, field: string): string[] | string {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return `"${field}" must be an array of strings`;
  return [...v];
}

function stringMap(v: unknown, field: string): Record<string, string> | string {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `"${field}" must be an object of strings`;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (typeof x !== 'string') return `"${field}.${k}" must be a string`;
    out[k] = x;
  }
  return out;
}

/** One line for status and approval prompts: the command line or the URL. */
export function describeLaunch(config: McpServerConfig): string {
  if (config.transport === 'stdio') {
    const env = Object.keys(config.env);
    return `${[config.command, ...config.args].map(quoteArg).join(' ')}${env.length ? ` (env: ${env.join(', ')})` : ''}${config.cwd ? ` in ${config.cwd}` : ''}`;
  }
  const headers = Object.keys(config.headers);
  return `${config.url}${config.transport === 'sse' ? ' (SSE)' : ''}${headers.length ? ` (headers: ${headers.join(', ')})` : ''}`;
}

function quoteArg(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
