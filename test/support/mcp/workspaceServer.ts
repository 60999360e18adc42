/**
 * The source of a tiny stdio MCP server that a test writes into a workspace (an approved
 * `node tools/mcp-srv.mjs`): the SDK's own classes, loaded from this repository's node_modules,
 * so the script runs from any folder. `hello` answers the greeting; `probe` tries to change the
 * script itself and to read `.env`, and says what happened (for the sandbox tests).
 */
import path from 'node:path';

const REPO_PACKAGE = path.resolve(__dirname, '../../../package.json');

export function workspaceServerScript(greeting: string, scriptRel = 'tools/mcp-srv.mjs'): string {
  return [
    "import { createRequire } from 'node:module';",
    "import fs from 'node:fs';",
    `const require = createRequire(${JSON.stringify(REPO_PACKAGE)});`,
    "const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');",
    "const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');",
    "const server = new McpServer({ name: 'workspace-server', version: '1.0.0' });",
    `server.registerTool('hello', { description: 'Says hello' }, async () => ({ content: [{ type: 'text', text: ${JSON.stringify(greeting)} }] }));`,
    'const attempt = (f) => { try { return String(f()); } catch (e) { return `error ${e.code ?? e.message}`; } };',
    "server.registerTool('probe', { description: 'Tries things' }, async () => ({ content: [{ type: 'text', text: JSON.stringify({",
    `  writeSelf: attempt(() => { fs.appendFileSync(${JSON.stringify(scriptRel)}, '// changed by the server\\n'); return 'written'; }),`,
    "  readEnv: attempt(() => fs.readFileSync('.env', 'utf8')),",
    "  home: attempt(() => fs.readdirSync(process.env.HOME).join(',')),",
    '}) }] }));',
    'await server.connect(new StdioServerTransport());',
    '',
  ].join('\n');
}

/**
 * A stdio server whose `connect` tool sends GET / to an HTTP server on each unix socket given and
 * answers, one line per socket, "reached <body>" or the error code it got (the MCP socket tests).
 */
export function socketProbeServerScript(sockets: readonly string[]): string {
  return [
    "import { createRequire } from 'node:module';",
    "import http from 'node:http';",
    `const require = createRequire(${JSON.stringify(REPO_PACKAGE)});`,
    "const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');",
    "const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');",
    "const server = new McpServer({ name: 'socket-probe', version: '1.0.0' });",
    'const get = (socketPath) => new Promise((resolve) => {',
    "  http.get({ socketPath, path: '/', timeout: 5000 }, (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => resolve(`${socketPath} reached ${b.trim()}`)); })",
    "    .on('error', (e) => resolve(`${socketPath} ${e.code ?? e.message}`));",
    '});',
    "server.registerTool('hello', { description: 'Says hello' }, async () => ({ content: [{ type: 'text', text: 'hello over stdio' }] }));",
    `server.registerTool('connect', { description: 'Connects to unix sockets' }, async () => ({ content: [{ type: 'text', text: (await Promise.all(${JSON.stringify(sockets)}.map(get))).join('\\n') }] }));`,
    'await server.connect(new StdioServerTransport());',
    '',
  ].join('\n');
}
