#!/usr/bin/env node
// A tiny MCP server over stdio for tests (the SDK's own server classes), with the faults the
// reference servers do not have:
//   die {}            writes to stderr and exits with code 3 in the middle of the call
//   slow {ms}         answers after ms milliseconds (timeouts, cancellation)
//   echo {text}       answers "echo: <text>"; its description is read from --description-file
//                     at start, so a test can change it between starts without changing the launch
//   retitle {description}  (with --changing) gives echo a new description: tools/list_changed
// Flags: --pid-file F (writes its pid), --grandchild TAG (starts a `sleep TAG` child that it leaves
// running, to check that closing the server ends its whole tree), --description-file F,
// --resource-file F (offers that file as a resource with its file: URI, read as it is now).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const pidFile = arg('pid-file');
if (pidFile) writeFileSync(pidFile, String(process.pid));
const tag = arg('grandchild');
if (tag) spawn('sleep', [tag], { stdio: 'ignore' });
const descriptionFile = arg('description-file');
const description = descriptionFile ? readFileSync(descriptionFile, 'utf8').trim() : 'Echoes the text back';

const server = new McpServer({ name: 'patchpilot-test-server', version: '1.0.0' });
const echo = server.registerTool('echo', { description, inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text: `echo: ${text}` }],
}));
server.registerTool('die', { description: 'Exits in the middle of the call' }, async () => {
  process.stderr.write('test server: dying on purpose in the middle of a call\n');
  setTimeout(() => process.exit(3), 20);
  return new Promise(() => undefined);
});
server.registerTool('slow', { description: 'Answers after ms milliseconds', inputSchema: { ms: z.number() } }, async ({ ms }) => {
  await new Promise((r) => setTimeout(r, ms));
  return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
});
server.registerTool('fail', { description: 'Reports an error result' }, async () => ({
  isError: true,
  content: [{ type: 'text', text: 'something went wrong on the server' }],
}));
if (process.argv.includes('--changing'))
  server.registerTool('retitle', { description: 'Gives echo a new description', inputSchema: { description: z.string() } }, async (args) => {
    echo.update({ description: args.description });
    return { content: [{ type: 'text', text: 'echo retitled' }] };
  });
const resourceFile = arg('resource-file');
if (resourceFile)
  server.registerResource(
    'workspace file',
    pathToFileURL(resourceFile).href,
    { mimeType: 'text/plain', description: 'A file of the workspace' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: readFileSync(resourceFile, 'utf8') }],
    }),
  );
await server.connect(new StdioServerTransport());
