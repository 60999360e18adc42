/**
 * An OAuth-protected MCP server for the remote-server tests, built from the SDK's own server
 * pieces on express (a dependency of the SDK): protected-resource metadata (RFC 9728) for /mcp,
 * an authorization server with dynamic client registration, PKCE (checked by the SDK's token
 * handler) and refresh-token rotation, and a stateless streamable-HTTP MCP endpoint behind
 * `requireBearerAuth`. The authorization page approves at once (it redirects straight back with a
 * code), so a test logs in by following the authorization URL with fetch. Access tokens live
 * `accessTtlSeconds`; `revokeRefreshTokens()` makes the next refresh fail with invalid_grant.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';

// express has no types installed here (the SDK brings it as its own dependency); the handful of calls below are plain.
const express = require('express') as any;

export interface OAuthMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  stats: { registrations: number; authorizations: number; codeExchanges: number; refreshes: number; refusedRefreshes: number; toolCalls: number };
  /** Makes every issued access token expire now (the next request gets 401). */
  expireAccessTokens(): void;
  /** The next refresh is refused with invalid_grant (a revoked or expired refresh token). */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

const token = () => randomBytes(18).toString('base64url');

export async function startOAuthMcpServer(o: { accessTtlSeconds?: number } = {}): Promise<OAuthMcpServer> {
  const ttl = o.accessTtlSeconds ?? 3600;
  const stats = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0, refusedRefreshes: 0, toolCalls: 0 };
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const access = new Map<string, { clientId: string; expiresAt: number }>();
  const refresh = new Map<string, string>(); // refresh token -> client id

  const issue = (clientId: string): OAuthTokens => {
    const a = token();
    const r = token();
    access.set(a, { clientId, expiresAt: Math.floor(Date.now() / 1000) + ttl });
    refresh.set(r, clientId);
    return { access_token: a, token_type: 'bearer', expires_in: ttl, refresh_token: r };
  };

  const provider: OAuthServerProvider = {
    clientsStore: {
      getClient: (id) => clients.get(id),
      registerClient: (client) => {
        stats.registrations++;
        const full = { ...client, client_id: token(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
        clients.set(full.client_id, full);
        return full;
      },
    },
    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: any) {
      stats.authorizations++;
      const code = token();
      codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge, redirectUri: params.redirectUri });
      const back = new URL(params.redirectUri);
      back.searchParams.set('code', code);
      if (params.state !== undefined) back.searchParams.set('state', params.state);
      res.redirect(302, back.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const c = codes.get(code);
      if (!c) throw new InvalidGrantError('unknown authorization code');
      return c.challenge;
    },
    async exchangeAuthorizationCode(client, code) {
      const c = codes.get(code);
      codes.delete(code);
      if (!c || c.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
      stats.codeExchanges++;
      return issue(client.client_id);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const owner = refresh.get(refreshToken);
      refresh.delete(refreshToken);
      if (owner !== client.client_id) {
        stats.refusedRefreshes++;
        throw new InvalidGrantError('refresh token expired or revoked');
      }
      stats.refreshes++;
      return issue(client.client_id);
    },
    async verifyAccessToken(t) {
      const a = access.get(t);
      if (!a) throw new InvalidTokenError('unknown token');
      return { token: t, clientId: a.clientId, scopes: [], expiresAt: a.expiresAt };
    },
  };

  const app = express();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${base}/mcp`;
  const noLimit = { rateLimit: false as const };
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(base),
      resourceServerUrl: new URL(url),
      authorizationOptions: noLimit,
      tokenOptions: noLimit,
      clientRegistrationOptions: noLimit,
      revocationOptions: noLimit,
    }),
  );
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)) });
  app.post('/mcp', express.json(), bearer, async (req: any, res: any) => {
    // Stateless: every POST is authenticated on its own, so an expired token is seen at the next call.
    const mcp = new McpServer({ name: 'oauth-test-server', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says which OAuth client called', inputSchema: {} }, async () => {
      stats.toolCalls++;
      return { content: [{ type: 'text', text: `client ${req.auth?.clientId}` }] };
    });
    mcp.registerTool('echo', { description: 'Echoes the text back', inputSchema: { text: z.string() } }, async ({ text }) => {
      stats.toolCalls++;
      return { content: [{ type: 'text', text }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', (_req: any, res: any) => res.status(405).set('allow', 'POST').end());
  app.delete('/mcp', (_req: any, res: any) => res.status(405).set('allow', 'POST').end());

  return {
    url,
    stats,
    expireAccessTokens: () => {
      for (const a of access.values()) a.expiresAt = Math.floor(Date.now() / 1000) - 1;
    },
    revokeRefreshTokens: () => refresh.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Plays the browser: the authorization page redirects at once; its Location is the loopback callback. */
export async function followAuthorization(url: URL | string): Promise<void> {
  const page = await fetch(url, { redirect: 'manual' });
  if (page.status !== 302) throw new Error(`the authorization page did not redirect back (${page.status}): ${await page.text()}`);
  const back = await fetch(page.headers.get('location')!);
  if (back.status !== 200) throw new Error(`the loopback callback answered ${back.status}: ${await back.text()}`);
}
