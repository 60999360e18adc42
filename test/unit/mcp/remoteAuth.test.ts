// The pieces of remote-server OAuth around the SDK (src/core/mcp/remote): the fetch policy for the
// hosts a server's OAuth metadata names, the loopback redirect listener, the token file's mode.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOAuthFetch } from '../../../src/core/mcp/remote/oauthFetch';
import { startLoopbackRedirect } from '../../../src/core/mcp/remote/loopbackRedirect';
import { FileSecretStore } from '../../../src/host/node/fileSecretStore';
import { McpOAuthProvider } from '../../../src/core/mcp/remote/oauthProvider';
import { remoteAuthFactory } from '../../../src/core/mcp/remote/remoteAuth';
import { launchQuestion } from '../../../src/core/mcp/launchQuestion';

const reached: string[] = [];
const redirectModes: (string | undefined)[] = [];
const fakeFetch = async (url: string | URL, init?: RequestInit) => {
  reached.push(String(url));
  redirectModes.push(init?.redirect);
  return new Response('{}', { status: 200 });
};
const resolver = async (host: string) => [{ address: host === 'intranet.example.com' ? '10.1.2.3' : '93.184.215.14', family: 4 }];
const policy = (serverUrl: string, network = { fetchAllowHosts: [] as string[], allowPrivateNetwork: false }) =>
  createOAuthFetch({ serverUrl, network, resolver, fetch: fakeFetch });

describe('remote MCP OAuth: the hosts a server names pass the fetch policy', () => {
  test('the configured server host is reached as configured, localhost included', async () => {
    const f = policy('http://127.0.0.1:8123/mcp');
    assert.equal((await f('http://127.0.0.1:8123/.well-known/oauth-protected-resource/mcp')).status, 200);
    assert.equal((await f(new URL('http://127.0.0.1:9000/token'))).status, 200, 'same host, another port: its own authorization server');
    assert.deepEqual(redirectModes.slice(-2), ['manual', 'manual'], 'a redirect is never followed past the check');
  });

  test('another private or loopback host named by the metadata is refused unless the user opted it in', async () => {
    const f = policy('https://mcp.example.com/mcp');
    await assert.rejects(
      f('http://127.0.0.1:6379/'),
      /refused to reach http:\/\/127\.0\.0\.1:6379\/ \(named by the server's OAuth metadata\): .*not a public address/,
    );
    await assert.rejects(f('http://localhost/token'), /names this machine/);
    await assert.rejects(f('https://intranet.example.com/token'), /resolves to 10\.1\.2\.3/);
    assert.equal((await f('https://auth.example.org/token')).status, 200, 'a public authorization server');
    const optedIn = policy('https://mcp.example.com/mcp', { fetchAllowHosts: ['intranet.example.com'], allowPrivateNetwork: false });
    assert.equal((await optedIn('https://intranet.example.com/token')).status, 200);
  });

  test('cloud metadata addresses are never reached, not even as the configured host', async () => {
    await assert.rejects(policy('https://mcp.example.com/mcp')('http://169.254.169.254/latest/meta-data/'), /cloud metadata/);
    await assert.rejects(policy('http://169.254.169.254/mcp')('http://169.254.169.254/mcp'), /cloud metadata/);
    await assert.rejects(
      policy('https://mcp.example.com/mcp', { fetchAllowHosts: [], allowPrivateNetwork: true })('http://169.254.169.254/'),
      /cloud metadata/,
    );
    assert.ok(!reached.some((u) => u.includes('169.254')));
  });
});

describe('remote MCP OAuth: the loopback redirect', () => {
  test("listens on 127.0.0.1 with a random port; a callback without this login's state is not the answer", async () => {
    const r = await startLoopbackRedirect();
    try {
      assert.match(r.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal((await fetch(`${r.redirectUrl}?code=stolen&state=guess`)).status, 404);
      assert.equal((await fetch(`${r.redirectUrl.replace('/callback', '/other')}?code=x&state=${r.state}`)).status, 404);
      const ok = await fetch(`${r.redirectUrl}?code=the-code&state=${r.state}`);
      assert.equal(ok.status, 200);
      assert.match(await ok.text(), /Logged in/);
      assert.equal(await r.code, 'the-code');
    } finally {
      await r.close();
    }
  });

  test('an error answer, a timeout and a cancel each end the wait with the reason', async () => {
    const denied = await startLoopbackRedirect();
    await fetch(`${denied.redirectUrl}?error=access_denied&error_description=user+said+no&state=${denied.state}`);
    await assert.rejects(denied.code, /refused the login: access_denied \(user said no\)/);
    await denied.close();
    const slow = await startLoopbackRedirect({ timeoutMs: 50 });
    await assert.rejects(slow.code, /no answer from the browser within 0 s/);
    await slow.close();
    const controller = new AbortController();
    const cancelled = await startLoopbackRedirect({ signal: controller.signal });
    controller.abort();
    await assert.rejects(cancelled.code, /cancelled/);
    await cancelled.close();
  });
});

describe('remote MCP OAuth: storage and provider', () => {
  test('the token file is created 0600 in a 0700 folder, replaced whole, and a broken file reads as empty', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pp-secrets-'));
    try {
      const store = new FileSecretStore(path.join(dir, 'state'));
      await store.store('a', '1');
      await store.store('b', '2');
      assert.equal(statSync(store.file).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(store.file)).mode & 0o777, 0o700);
      assert.equal(await store.get('a'), '1');
      await store.delete('a');
      assert.equal(await store.get('a'), undefined);
      assert.equal(await store.get('b'), '2');
      (await import('node:fs')).writeFileSync(store.file, '{torn');
      assert.equal(await store.get('b'), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a run never opens the browser: a needed authorization is a login request naming the way to log in', async () => {
    const memory = new Map<string, string>();
    const store = {
      get: async (k: string) => memory.get(k),
      store: async (k: string, v: string) => void memory.set(k, v),
      delete: async (k: string) => void memory.delete(k),
    };
    const p = new McpOAuthProvider({ server: 'docs', url: 'https://mcp.example.com/mcp', store, loginHint: 'run: patchpilot mcp login docs' });
    await assert.rejects(p.clientInformation(), /MCP server "docs" needs you to log in \(not logged in yet\): run: patchpilot mcp login docs/);
    await p.saveClientInformation({ client_id: 'c1' });
    await p.saveTokens({ access_token: 'a', token_type: 'bearer', refresh_token: 'r' });
    await p.invalidateCredentials('tokens');
    assert.equal(await p.tokens(), undefined);
    assert.deepEqual(await p.clientInformation(), { client_id: 'c1' });
    await assert.rejects(p.redirectToAuthorization(new URL('https://auth.example.com/authorize')), /expired or was revoked/);
  });

  test('a server whose headers carry its own Authorization gets no OAuth provider', () => {
    const store = { get: async () => undefined, store: async () => undefined, delete: async () => undefined };
    const make = remoteAuthFactory({ store, network: { fetchAllowHosts: [], allowPrivateNetwork: false } });
    const base = { transport: 'http' as const, url: 'https://mcp.example.com/mcp', alwaysAllow: [], disabled: false };
    assert.equal(make('a', { ...base, headers: { authorization: 'Bearer x' } }).authProvider, undefined);
    assert.ok(make('b', { ...base, headers: {} }).authProvider);
  });
});

describe('remote MCP servers: the approval question', () => {
  const remote = (url: string, headers: Record<string, string> = {}) => ({ transport: 'http' as const, url, headers, alwaysAllow: [], disabled: false });
  const ask = (url: string, headers?: Record<string, string>) =>
    launchQuestion('docs', remote(url, headers), {}, undefined, { sandboxed: false, why: 'n/a' } as never);

  test('a URL on this machine or a private network is said to be one; a public one is not', () => {
    const local = ask('http://127.0.0.1:3000/mcp');
    assert.match(local.reason, /on this machine or a private network \(a workspace could use that to reach a local service\)/);
    assert.match(local.detail!, /^address: not public \(127\.0\.0\.1 is not a public address \(loopback/m);
    assert.match(ask('http://wiki/mcp').detail!, /^address: not public \("wiki" is a single-label \(intranet\) name; fetch a fully qualified public name\)$/m);
    const pub = ask('https://mcp.example.com/mcp');
    assert.doesNotMatch(pub.reason, /private/);
    assert.doesNotMatch(pub.detail!, /^address:/m);
  });

  test('how the server is signed in to: OAuth, or the configured Authorization header', () => {
    assert.match(ask('https://mcp.example.com/mcp').detail!, /^sign-in: OAuth if the server asks for it/m);
    assert.match(ask('https://mcp.example.com/mcp', { Authorization: 'Bearer x' }).detail!, /^sign-in: the configured Authorization header$/m);
  });
});
