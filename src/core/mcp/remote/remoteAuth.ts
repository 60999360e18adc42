/**
 * What a remote server's connection and its login need: the OAuth provider over the user's secret
 * store and the policy-checked fetch (oauthFetch.ts). A server whose configured headers already
 * carry an Authorization header uses those alone (a token the user manages), without OAuth.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpHttpConfig } from '../../config/mcpServers';
import type { NetworkPolicySettings } from '../../web';
import type { SecretStore } from '../../ports/secretStore';
import { createOAuthFetch } from './oauthFetch';
import { McpOAuthProvider } from './oauthProvider';

export interface RemoteAuth {
  authProvider?: OAuthClientProvider;
  fetch: FetchLike;
}

export interface RemoteAuthOptions {
  store: SecretStore;
  network: NetworkPolicySettings;
  /** How the user logs in to a server from this host, for the message of a server that needs it. */
  loginHint?: (server: string) => string;
  /** Tests: a fetch underneath the policy. */
  fetch?: FetchLike;
}

export type RemoteAuthFactory = (server: string, config: McpHttpConfig) => RemoteAuth;

export function remoteAuthFactory(o: RemoteAuthOptions): RemoteAuthFactory {
  return (server, config) => {
    const fetch = createOAuthFetch({ serverUrl: config.url, network: o.network, ...(o.fetch ? { fetch: o.fetch } : {}) });
    if (hasAuthorizationHeader(config.headers)) return { fetch };
    const hint = o.loginHint?.(server);
    return { fetch, authProvider: new McpOAuthProvider({ server, url: config.url, store: o.store, ...(hint ? { loginHint: hint } : {}) }) };
  };
}

export function hasAuthorizationHeader(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
}
