// The built CLI with a remote OAuth-protected MCP server (test/support/mcp/oauthServer.ts): before a
// login `mcp list` says how to log in; `mcp login NAME --no-browser` prints the authorization page,
// which the test follows as a browser would, and keeps the tokens in a 0600 file in
// PATCHPILOT_STATE_HOME; `mcp approve` and `mcp list` then show the remote server's tools;
// `mcp logout` deletes them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { followAuthorization, startOAuthMcpServer, type OAuthMcpServer } from '../../support/mcp/oauthServer';
import { runCli, skipWithoutBuild, withRepo } from '../agent/support';

describe('patchpilot mcp login / list with a remote OAuth server (built CLI)', { skip: skipWithoutBuild }, () => {
  let server: OAuthMcpServer;
  const userState = mkdtempSync(path.join(tmpdir(), 'pp-cli-oauth-'));
  const env = { PATCHPILOT_STATE_HOME: userState };
  const mcp = (args: string[], onStderr?: (text: string) => void) => runCli(args, { command: 'mcp', env, ...(onStderr ? { onStderr } : {}) });

  before(async () => {
    server = await startOAuthMcpServer();
  });
  after(async () => {
    await server.close();
    rmSync(userState, { recursive: true, force: true });
  });

  test('login prints the page, the browser comes back to the loopback, tokens are kept 0600; list shows the tools; logout forgets', async () => {
    await withRepo([], async (root) => {
      mkdirSync(path.join(root, '.vscode'), { recursive: true });
      const servers = { docs: { url: server.url, alwaysAllow: ['echo'] } };
      writeFileSync(path.join(root, '.vscode', 'settings.json'), JSON.stringify({ 'patchpilot.mcp.servers': servers }));
      const ws = ['--workspace', root, '--trust-workspace'];

      const before = await mcp(['approve', 'docs', ...ws]);
      assert.equal(before.code, 1);
      assert.match(
        before.stderr,
        /docs not approved: it could not be started \(MCP server "docs" needs you to log in \(not logged in yet\): log in with: patchpilot mcp login docs\)/,
      );

      let followed: Promise<void> | undefined;
      const login = await mcp(['login', 'docs', '--no-browser', ...ws], (text) => {
        const page = /Open this page to log in.*\n\s+(\S+)/.exec(text)?.[1];
        if (page && !followed) followed = followAuthorization(page);
      });
      await followed;
      assert.equal(login.code, 0, login.stderr);
      assert.match(login.stderr, new RegExp(`Logging in to docs at ${server.url.replace(/[.]/g, '\\.')}`));
      assert.match(login.stdout, /logged in to docs; its tokens are kept in .*mcp-oauth\.json \(readable by you only\)/);
      const file = path.join(userState, 'mcp-oauth.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.match(readFileSync(file, 'utf8'), /access_token/);

      const approve = await mcp(['approve', 'docs', ...ws]);
      assert.equal(approve.code, 0, approve.stderr);
      assert.match(approve.stdout, /^approved docs: http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
      assert.match(approve.stdout, /^ {2}echo: Echoes the text back \(always allowed\)$/m);
      assert.match(approve.stdout, /^ {2}whoami: Says which OAuth client called$/m);
      const list = await mcp(['list', ...ws]);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /^docs {2}connected via streamable-http, 2 tools$/m);

      const logout = await mcp(['logout', 'docs', ...ws]);
      assert.equal(logout.code, 0, logout.stderr);
      assert.doesNotMatch(readFileSync(file, 'utf8'), /access_token/);
      const after = await mcp(['list', ...ws]);
      assert.match(after.stdout, /^docs {2}failed: MCP server "docs" needs you to log in/m);

      const local = await mcp(['login', 'nope', ...ws]);
      assert.equal(local.code, 2);
      assert.match(local.stderr, /no MCP server named "nope" \(configured: docs\)/);
    });
  });
});
