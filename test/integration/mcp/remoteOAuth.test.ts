// Remote MCP servers with OAuth 2.1 (src/core/mcp/remote): a real OAuth-protected MCP server over
// HTTP (test/support/mcp/oauthServer.ts, the SDK's server pieces) and the real client stack. The
// login follows the authorization URL with fetch (the test server approves at once): discovery ->
// dynamic registration -> code + PKCE -> tokens (kept in a 0600 file) -> tool call; an expired
// access token is refreshed; a refused refresh is a clear "log in again", not a crash; a wrong PKCE
// verifier gets no token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exchangeAuthorization, registerClient, startAuthorization, discoverOAuthServerInfo } from '@modelcontextprotocol/sdk/client/auth.js';
import { McpConnection } from '../../../src/core/mcp/connection';
import type { McpHttpConfig } from '../../../src/core/config/mcpServers';
import { FileSecretStore } from '../../../src/host/node/fileSecretStore';
import { loginToMcpServer } from '../../../src/core/mcp/remote/login';
import { oauthKey } from '../../../src/core/mcp/remote/oauthProvider';
import { remoteAuthFactory } from '../../../src/core/mcp/remote/remoteAuth';
import { DEFAULT_SETTINGS, type PatchPilotSettings, type ResolvedConfig } from '../../../src/core/config';
import { createAgent } from '../../../src/core/session';
import { followAuthorization, startOAuthMcpServer, type OAuthMcpServer } from '../../support/mcp/oauthServer';
import { fakeHost, MemorySecretStore } from '../../support/fakes';

const NETWORK = { fetchAllowHosts: [], allowPrivateNetwork: false };
const HINT = (s: string) => `log in with: patchpilot mcp login ${s}`;

describe('remote MCP servers with OAuth (real OAuth-protected server, SDK client)', () => {
  let server: OAuthMcpServer;
  let stateDir: string;
  let store: FileSecretStore;
  let config: McpHttpConfig;
  const connections: McpConnection[] = [];

  const connect = () => {
    const c = new McpConnection('docs', config, {
      root: stateDir,
      envAllow: [],
      connectTimeoutMs: 10_000,
      callTimeoutMs: 10_000,
      backoff: { baseMs: 10, maxMs: 10, maxReconnects: 0 },
      remoteAuth: remoteAuthFactory({ store, network: NETWORK, loginHint: HINT })('docs', config),
    });
    connections.push(c);
    return c;
  };
  const stored = () =>
    JSON.parse(JSON.parse(readFileSync(store.file, 'utf8'))[oauthKey(config.url)]) as { tokens?: { access_token: string; refresh_token?: string } };

  before(async () => {
    server = await startOAuthMcpServer();
    stateDir = mkdtempSync(path.join(tmpdir(), 'pp-oauth-'));
    store = new FileSecretStore(path.join(stateDir, 'state'));
    config = { transport: 'http', url: server.url, headers: {}, alwaysAllow: [], disabled: false };
  });
  after(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await server.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  test('before any login: the server is not reached past discovery, and the reason says how to log in', async () => {
    const c = connect();
    await assert.rejects(c.ensureConnected(), /MCP server "docs" needs you to log in \(not logged in yet\): log in with: patchpilot mcp login docs/);
    assert.equal(c.state, 'failed');
    assert.equal(server.stats.registrations, 0, 'no client is registered without a login');
  });

  test('login: discovery, dynamic registration, code + PKCE, tokens kept in a 0600 file; then the tools are listed and called', async () => {
    let opened: URL | undefined;
    await loginToMcpServer({
      server: 'docs',
      config,
      store,
      network: NETWORK,
      open: async (url) => {
        opened = url;
        await followAuthorization(url);
      },
    });
    assert.ok(opened);
    assert.equal(opened.searchParams.get('code_challenge_method'), 'S256');
    assert.match(opened.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(opened.searchParams.get('resource'), server.url);
    assert.deepEqual([server.stats.registrations, server.stats.authorizations, server.stats.codeExchanges], [1, 1, 1]);
    assert.equal(statSync(store.file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(store.file)).mode & 0o077, 0, "the state folder is the user's only");
    assert.ok(stored().tokens?.access_token && stored().tokens?.refresh_token);

    const c = connect();
    await c.ensureConnected();
    assert.equal(c.transportKind, 'streamable-http');
    assert.deepEqual(c.tools.map((t) => t.name).sort(), ['echo', 'whoami']);
    const result = await c.callTool('echo', { text: 'hello' }, new AbortController().signal);
    assert.deepEqual(result.content, [{ type: 'text', text: 'hello' }]);
  });

  test('an expired access token is refreshed with the refresh token, and the call goes through', async () => {
    const c = connect();
    await c.ensureConnected();
    const before = stored().tokens!;
    server.expireAccessTokens();
    const result = await c.callTool('whoami', {}, new AbortController().signal);
    assert.match((result.content as { text: string }[])[0]!.text, /^client /);
    assert.equal(server.stats.refreshes, 1);
    assert.notEqual(stored().tokens!.access_token, before.access_token, 'the new token is kept');
    assert.equal(server.stats.authorizations, 1, 'no new login was needed');
  });

  test('a refused refresh token (revoked or expired): a clear request to log in again, and a new login works', async () => {
    const c = connect();
    await c.ensureConnected();
    server.expireAccessTokens();
    server.revokeRefreshTokens();
    await assert.rejects(
      c.callTool('whoami', {}, new AbortController().signal),
      /MCP server "docs" needs you to log in \(the saved login expired or was revoked; the server refused its refresh token\): log in with: patchpilot mcp login docs/,
    );
    assert.equal(server.stats.refusedRefreshes, 1);
    const again = connect();
    await assert.rejects(again.ensureConnected(), /needs you to log in/);

    await loginToMcpServer({ server: 'docs', config, store, network: NETWORK, open: followAuthorization });
    const fresh = connect();
    await fresh.ensureConnected();
    assert.equal((await fresh.callTool('echo', { text: 'back' }, new AbortController().signal)).isError, undefined);
  });

  test('the token endpoint refuses a code with the wrong PKCE verifier (and takes the right one)', async () => {
    const info = await discoverOAuthServerInfo(server.url);
    const redirectUrl = 'http://127.0.0.1:9/callback';
    const client = await registerClient(info.authorizationServerUrl, {
      metadata: info.authorizationServerMetadata,
      clientMetadata: { redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none', client_name: 'pkce-test' },
    });
    const codeFor = async () => {
      const { authorizationUrl, codeVerifier } = await startAuthorization(info.authorizationServerUrl, {
        metadata: info.authorizationServerMetadata,
        clientInformation: client,
        redirectUrl,
      });
      const page = await fetch(authorizationUrl, { redirect: 'manual' });
      return { code: new URL(page.headers.get('location')!).searchParams.get('code')!, codeVerifier };
    };
    const exchange = (code: string, codeVerifier: string) =>
      exchangeAuthorization(info.authorizationServerUrl, {
        metadata: info.authorizationServerMetadata,
        clientInformation: client,
        authorizationCode: code,
        codeVerifier,
        redirectUri: redirectUrl,
      });
    const first = await codeFor();
    await assert.rejects(exchange(first.code, `${first.codeVerifier.slice(0, -4)}AAAA`), /code_verifier does not match|invalid_grant/i);
    const second = await codeFor();
    assert.ok((await exchange(second.code, second.codeVerifier)).access_token);
  });
  test("an agent's remote server uses exactly the host's secrets (Host.secrets): no token file is written or read", async () => {
    const secrets = new MemorySecretStore();
    const userStateDir = path.join(stateDir, 'agent-user-state');
    const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
    Object.assign(settings.llm, { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    settings.history.path = '.patchpilot/history.db';
    settings.mcp.servers = { docs: config };
    const resolved: ResolvedConfig = { settings, sources: {}, values: {}, ignored: [], warnings: [] };
    const workspace = mkdtempSync(path.join(tmpdir(), 'pp-oauth-ws-'));
    const agent = await createAgent(fakeHost(workspace, { secrets }), resolved, { historyMode: 'in-process', userStateDir });
    try {
      // Logged in once the agent is built: no pooled connection to the server sits idle while it is.
      await loginToMcpServer({ server: 'docs', config, store: secrets, network: NETWORK, open: followAuthorization });
      secrets.calls.length = 0;
      const approved = await agent.mcp!.approve('docs');
      assert.equal(approved.status.state, 'connected', approved.status.reason);
      assert.deepEqual(approved.tools.map((t) => t.name).sort(), ['echo', 'whoami']);
      assert.ok(secrets.calls.includes(`get ${oauthKey(config.url)}`), secrets.calls.join(', '));
      assert.equal(existsSync(path.join(userStateDir, 'mcp-oauth.json')), false, 'the core keeps no token file of its own');
    } finally {
      await agent.dispose();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
