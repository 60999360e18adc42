/**
 * Logs the user in to a remote MCP server: authorization code with PKCE, the browser sent to the
 * authorization server's page and back to a loopback listener (loopbackRedirect.ts). The SDK's
 * auth() does discovery, registration, the PKCE pair and the code exchange; this wires its two
 * halves around the browser and stores what it returns in the user's secret store.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpHttpConfig } from '../../config/mcpServers';
import type { NetworkPolicySettings, Resolver } from '../../web';
import type { SecretStore } from '../../ports/secretStore';
import { startLoopbackRedirect } from './loopbackRedirect';
import { createOAuthFetch, namedUrlRefusal, RefusedUrlError } from './oauthFetch';
import { McpOAuthProvider } from './oauthProvider';
import { hasAuthorizationHeader } from './remoteAuth';
import { lazyChunk } from '../../base/lazyChunks';

export interface McpLoginOptions {
  server: string;
  config: McpHttpConfig;
  store: SecretStore;
  network: NetworkPolicySettings;
  /** Sends the user to the authorization page (the CLI prints it and may open a browser; VS Code asks first). */
  open(authorizationUrl: URL): Promise<void>;
  signal?: AbortSignal;
  /** How long the browser may take (default 5 min). */
  timeoutMs?: number;
  /** Tests: a fetch underneath the policy. */
  fetch?: FetchLike;
  /** Tests: how names resolve for the policy. */
  resolver?: Resolver;
}

export async function loginToMcpServer(o: McpLoginOptions): Promise<void> {
  if (hasAuthorizationHeader(o.config.headers)) {
    throw new Error(`MCP server "${o.server}" sends its own Authorization header (its "headers" setting); remove it to log in with OAuth`);
  }
  const fetchFn = createOAuthFetch({
    serverUrl: o.config.url,
    network: o.network,
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.resolver ? { resolver: o.resolver } : {}),
  });
  const redirect = await startLoopbackRedirect({ ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}), ...(o.signal ? { signal: o.signal } : {}) });
  try {
    const provider = new McpOAuthProvider({
      server: o.server,
      url: o.config.url,
      store: o.store,
      interactive: { redirectUrl: redirect.redirectUrl, state: redirect.state, open: (url) => openChecked(o, url) },
    });
    // An explicit login is a new one: the old tokens (and their refresh token) are not tried first.
    await provider.invalidateCredentials('tokens');
    const { auth } = lazyChunk.mcp();
    const first = await auth(provider, { serverUrl: o.config.url, fetchFn });
    if (first === 'AUTHORIZED') return;
    const code = await redirect.code;
    const second = await auth(provider, { serverUrl: o.config.url, authorizationCode: code, fetchFn });
    if (second !== 'AUTHORIZED') throw new Error(`MCP server "${o.server}": the login did not complete`);
  } finally {
    await redirect.close();
  }
}

/** The authorization page passes the rule of every host the metadata names (oauthFetch.ts) before the user is asked to open it. */
async function openChecked(o: McpLoginOptions, url: URL): Promise<void> {
  const problem = await namedUrlRefusal(url, { serverUrl: o.config.url, network: o.network, ...(o.resolver ? { resolver: o.resolver } : {}) });
  if (problem)
    throw new RefusedUrlError(
      `refused to send the browser to ${url.origin}${url.pathname} (the authorization page named by the server's OAuth metadata): ${problem}`,
    );
  await o.open(url);
}

/** Logs out: the server's tokens, registration and discovery are forgotten here (the authorization server is not told). */
export async function logoutFromMcpServer(o: { server: string; config: McpHttpConfig; store: SecretStore }): Promise<void> {
  await new McpOAuthProvider({ server: o.server, url: o.config.url, store: o.store }).forget();
}
