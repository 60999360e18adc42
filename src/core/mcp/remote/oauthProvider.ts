/**
 * The SDK's OAuthClientProvider for one remote MCP server, over a SecretStore. The SDK does the
 * protocol (RFC 9728 protected-resource metadata, authorization server metadata, dynamic client
 * registration, PKCE, refresh, issuer binding); this keeps what it hands over, per server URL:
 * the registered client, the tokens (stamped with their issuer) and the discovery result. The PKCE
 * verifier lives in memory only, for the one login that made it.
 *
 * Two modes. Interactive (`patchpilot mcp login`, the extension's login command): a loopback
 * redirect URL and a way to send the user to the authorization page. Passive (a run, `mcp list`):
 * never opens anything; where the SDK would start a new authorization (no token, or the refresh
 * token was refused) it throws McpLoginRequiredError, which names the command that logs in.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SecretStore } from '../../ports/secretStore';

interface StoredAuth {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  discovery?: OAuthDiscoveryState;
}

export class McpLoginRequiredError extends Error {
  constructor(
    readonly server: string,
    why: string,
    hint: string | undefined,
  ) {
    super(`MCP server "${server}" needs you to log in${why ? ` (${why})` : ''}${hint ? `: ${hint}` : ''}`);
  }
}

export interface OAuthProviderOptions {
  /** The server's name, for messages. */
  server: string;
  /** The server's configured URL: the key of what is stored. */
  url: string;
  store: SecretStore;
  /** How the user logs in from this host (`run: patchpilot mcp login docs`), for passive mode's message. */
  loginHint?: string;
  /** A login under way: where the authorization server sends the browser back, and how to send the user there. */
  interactive?: { redirectUrl: string; state: string; open(authorizationUrl: URL): Promise<void> };
}

/** The SecretStore key of a server URL's OAuth state. */
export const oauthKey = (url: string) => `patchpilot.mcp.oauth:${url}`;

export class McpOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  /** The SDK dropped the tokens after the authorization server refused them (invalid_grant). */
  private tokensRefused = false;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: OAuthProviderOptions) {}

  get redirectUrl(): string {
    // Passive mode still answers (a missing redirect URL would make the SDK try a non-interactive grant);
    // redirectToAuthorization refuses there before any browser is involved.
    return this.o.interactive?.redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'PatchPilot',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A public client (RFC 8252): PKCE protects the code, there is no secret a local app could keep.
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.o.interactive?.state ?? '';
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const client = (await this.load()).client;
    if (!this.o.interactive) {
      if (!client) throw new McpLoginRequiredError(this.o.server, 'not logged in yet', this.o.loginHint);
      return client;
    }
    // Each login listens on a new random port: a registration made for another redirect URL is made again.
    const uris = client && 'redirect_uris' in client ? (client.redirect_uris as string[]) : [];
    return uris.includes(this.redirectUrl) ? client : undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    return this.update((s) => ({ ...s, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  saveTokens(tokens: OAuthTokens): Promise<void> {
    this.tokensRefused = false;
    return this.update((s) => ({ ...s, tokens }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.o.interactive) {
      const why = this.tokensRefused ? 'the saved login expired or was revoked; the server refused its refresh token' : 'the saved login has no usable token';
      throw new McpLoginRequiredError(this.o.server, why, this.o.loginHint);
    }
    // Only a web page goes to the browser (or the OS's URL handler): not file:, not a custom scheme.
    if (authorizationUrl.protocol !== 'https:' && authorizationUrl.protocol !== 'http:') {
      throw new Error(`the authorization server's page is not a web address: ${authorizationUrl.protocol}`);
    }
    await this.o.interactive.open(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no login is under way (no PKCE verifier)');
    return this.verifier;
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discovery;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    return this.update((s) => ({ ...s, discovery }));
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    if (scope === 'tokens' || scope === 'all') this.tokensRefused = true;
    await this.update((s) => {
      if (scope === 'all') return {};
      const { [scope === 'tokens' ? 'tokens' : scope === 'client' ? 'client' : 'discovery']: _dropped, ...rest } = s;
      return rest;
    });
  }

  /** Logs out: forgets the tokens, the registration and the discovery of this URL. */
  forget(): Promise<void> {
    const next = this.writes.then(() => this.o.store.delete(oauthKey(this.o.url)));
    this.writes = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<StoredAuth> {
    await this.writes.catch(() => undefined);
    const text = await this.o.store.get(oauthKey(this.o.url));
    if (!text) return {};
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as StoredAuth) : {};
    } catch {
      return {};
    }
  }

  /** Read-modify-write of the stored state, one at a time. */
  private update(change: (s: StoredAuth) => StoredAuth): Promise<void> {
    const next = this.writes.then(async () => {
      const text = await this.o.store.get(oauthKey(this.o.url));
      let current: StoredAuth = {};
      try {
        current = text ? (JSON.parse(text) as StoredAuth) : {};
      } catch {
        /* replaced whole */
      }
      await this.o.store.store(oauthKey(this.o.url), JSON.stringify(change(current)));
    });
    this.writes = next.catch(() => undefined);
    return next;
  }
}
