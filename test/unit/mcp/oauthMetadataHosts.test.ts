// Issue 26, item 6: a remote MCP server's OAuth metadata names the hosts of the rest of the login
// (its authorization server; that server's authorization, token and registration endpoints). A
// hostile server points them at this machine or a private network. Through the real login (the
// SDK's discovery, registration and PKCE, oauthFetch.ts's policy) with every spelling of a local or
// private host (test/support/localAddressSpellings.ts): nothing there is fetched, and the browser is
// never sent there, not even asked; a public authorization page is offered to the user as usual.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loginToMcpServer } from '../../../src/core/mcp/remote/login';
import { FileSecretStore } from '../../../src/host/node/fileSecretStore';
import { LOCAL_HOSTS } from '../../support/localAddressSpellings';

const SERVER = 'https://mcp.example.com/mcp';
const PUBLIC_AS = 'https://auth.example.com';
const NETWORK = { fetchAllowHosts: [] as string[], allowPrivateNetwork: false };
// Public names resolve to a public address; the local-looking names to a private one (as a hostile DNS would).
const resolver = async (host: string) => [{ address: /example\.com$/.test(host) ? '93.184.215.14' : '10.9.9.9', family: 4 }];

/** A server whose metadata names `as` as its authorization server, and `endpoint` as that server's authorization page. */
function metadataServer(as: string, endpoint: string) {
  const reached: string[] = [];
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const fetch = async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    reached.push(url.href);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) return json({ resource: SERVER, authorization_servers: [as] });
    if (url.pathname.startsWith('/.well-known/oauth-authorization-server') || url.pathname.startsWith('/.well-known/openid-configuration'))
      return json({
        issuer: as,
        authorization_endpoint: endpoint,
        token_endpoint: `${as}/token`,
        registration_endpoint: `${as}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    if (url.pathname === '/register' && init?.method === 'POST') return json({ client_id: 'c1', ...JSON.parse(String(init.body)) });
    return new Response('not found', { status: 404 });
  };
  return { fetch, reached };
}

async function login(as: string, endpoint: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-oauth-hosts-'));
  const server = metadataServer(as, endpoint);
  const opened: URL[] = [];
  try {
    const outcome = await loginToMcpServer({
      server: 'docs',
      config: { transport: 'http', url: SERVER, headers: {}, alwaysAllow: [], disabled: false },
      store: new FileSecretStore(path.join(dir, 'state')),
      network: NETWORK,
      fetch: server.fetch,
      resolver,
      timeoutMs: 1_000,
      open: async (url) => {
        opened.push(url);
        throw new Error('the user said no'); // ends the login here: what was offered is what counts
      },
    }).then(
      () => 'logged in',
      (err: Error) => err.message,
    );
    return { outcome, opened, reached: server.reached };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const hostOf = (href: string) => new URL(href).host;

describe("a remote server's OAuth metadata cannot point the login at a local or private address", () => {
  for (const host of LOCAL_HOSTS) {
    test(`authorization server at http://${host}: never reached, the browser never offered`, async () => {
      const as = `http://${host}`;
      const r = await login(as, `${as}/authorize`);
      assert.match(r.outcome, /refused to reach|not a public address|names this machine|private|cloud metadata/i, r.outcome);
      assert.deepEqual(r.opened, []);
      assert.ok(
        r.reached.every((u) => hostOf(u) === 'mcp.example.com'),
        `reached ${r.reached.join(', ')}`,
      );
    });
    test(`authorization page at http://${host}/authorize (public authorization server): the browser is never sent there`, async () => {
      const r = await login(PUBLIC_AS, `http://${host}/authorize`);
      assert.match(r.outcome, /refused to send the browser to .*authorization page named by the server's OAuth metadata/, r.outcome);
      assert.deepEqual(r.opened, []);
    });
  }

  test('control: a public authorization page is offered to the user', async () => {
    const r = await login(PUBLIC_AS, `${PUBLIC_AS}/authorize`);
    assert.equal(r.opened.length, 1, r.outcome);
    assert.equal(r.opened[0]!.origin, PUBLIC_AS);
  });
});
