import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { safeFetch, type NetworkPolicySettings, type Resolver } from '../../../src/core/web';
import { selfSignedCert, startServer, type LocalServer } from './localServer';

/**
 * TEST-ONLY allowance: the fetcher's mechanics (redirects, pinning, TLS) need a server, and the
 * only servers here are on loopback. Names under .test are mapped to 127.0.0.1 by an injected
 * resolver and opted in by name. The SSRF tests below run with the default, blocking settings.
 */
const TEST_ONLY_ALLOW: NetworkPolicySettings = { fetchAllowHosts: ['site.test', 'other.test'], allowPrivateNetwork: false };
const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

let server: LocalServer;
let base: string;

before(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
    if (hop) {
      const n = Number(hop[1]);
      if (n === 0) return res.end('arrived');
      res.writeHead(302, { location: `/hop/${n - 1}` });
      return res.end();
    }
    if (url.pathname === '/to') {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('u') ?? '/' });
      return res.end();
    }
    if (url.pathname === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<html><head><title>T</title><script>steal()</script></head><body><h1>Hi</h1><p>See <a href="/docs">the docs</a>.</p></body></html>');
    }
    if (url.pathname === '/host') return res.end(`host=${req.headers.host}`);
    if (url.pathname === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
      return res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    }
    if (url.pathname === '/binary') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.alloc(100, 1));
    }
    if (url.pathname === '/bigheader') {
      res.setHeader('x-big', 'a'.repeat(64 * 1024));
      return res.end('x');
    }
    res.writeHead(404);
    res.end('not found');
  });
  base = `http://site.test:${server.port}`;
});
after(() => server.close());

const fetchTest = (u: string) => safeFetch(u, { settings: TEST_ONLY_ALLOW, resolver: toLoopback });

describe('safeFetch mechanics against a real local server', () => {
  test('HTML page becomes readable text; Host header keeps the name', async () => {
    const r = await fetchTest(`${base}/page`);
    assert.equal(r.kind, 'response');
    if (r.kind !== 'response') return;
    assert.equal(r.ok, true);
    assert.equal(r.status, 200);
    assert.equal(r.contentType, 'text/html; charset=utf-8');
    assert.equal(r.text, `T\n\n# Hi\n\nSee the docs (${base}/docs).`);
    assert.equal(r.remoteAddress, '127.0.0.1');
    const h = await fetchTest(`${base}/host`);
    assert.equal(h.kind === 'response' && h.text, `host=site.test:${server.port}`);
  });
  test('charset, binary and 404 bodies', async () => {
    const l = await fetchTest(`${base}/latin1`);
    assert.equal(l.kind === 'response' && l.text, 'café');
    const b = await fetchTest(`${base}/binary`);
    assert.ok(b.kind === 'response' && b.text === '' && /Binary content \(image\/png, 100 bytes\)/.test(b.note ?? ''));
    const n = await fetchTest(`${base}/missing`);
    assert.ok(n.kind === 'response' && n.ok === false && n.status === 404 && n.text === 'not found');
  });
  test('oversized response headers are refused', async () => {
    const r = await fetchTest(`${base}/bigheader`);
    assert.equal(r.kind, 'error');
    assert.match(r.kind === 'error' ? r.error : '', /headers exceed 16384 bytes/);
  });
});

describe('redirects: followed by hand, each hop re-checked', () => {
  test('5 redirects are followed, the 6th is refused', async () => {
    const ok = await fetchTest(`${base}/hop/5`);
    assert.equal(ok.kind, 'response');
    assert.equal(ok.kind === 'response' && ok.text, 'arrived');
    assert.equal(ok.redirects.length, 5);
    assert.deepEqual(ok.redirects[0], { from: `${base}/hop/5`, to: `${base}/hop/4`, status: 302, remoteAddress: '127.0.0.1' });
    const tooMany = await fetchTest(`${base}/hop/6`);
    assert.equal(tooMany.kind, 'refused');
    assert.equal(tooMany.kind === 'refused' && tooMany.decision.rule, 'deny:too-many-redirects');
    assert.equal(tooMany.redirects.length, 6, 'the refused 6th redirect is listed too');
  });
  const hostile: [string, string][] = [
    ['http://169.254.169.254/latest/meta-data/iam/', 'deny:cloud-metadata'],
    ['http://[::ffff:a9fe:a9fe]/', 'deny:cloud-metadata'],
    ['http://0x7f.1:1/', 'deny:ip-loopback'],
    ['http://[::1]:1/', 'deny:ip-loopback'],
    ['http://10.0.0.1/', 'deny:ip-private'],
    ['http://localhost:1/', 'deny:local-hostname'],
    ['file:///etc/passwd', 'deny:url-scheme'],
    ['gopher://site.test/_x', 'deny:url-scheme'],
    ['http://user:pw@site.test/', 'deny:url-credentials'],
  ];
  for (const [target, rule] of hostile) {
    test(`redirect to ${target} -> ${rule}`, async () => {
      const before = server.requests.length;
      const r = await fetchTest(`${base}/to?u=${encodeURIComponent(target)}&status=307`);
      assert.equal(r.kind, 'refused');
      assert.equal(r.kind === 'refused' && r.decision.rule, rule);
      assert.equal(r.redirects.length, 1, 'the refused redirect is listed, so the model sees where it led');
      assert.equal(r.url, r.redirects[0]!.to);
      assert.equal(server.requests.length, before + 1, 'only the first request reached a server');
    });
  }
  test('a redirect to a name that resolves to a blocked address is refused', async () => {
    const resolver: Resolver = async (h) => [{ address: h === 'evil.example' ? '192.168.0.10' : '127.0.0.1', family: 4 }];
    const r = await safeFetch(`${base}/to?u=${encodeURIComponent('http://evil.example/')}`, { settings: TEST_ONLY_ALLOW, resolver });
    assert.equal(r.kind === 'refused' && r.decision.rule, 'deny:ip-private');
  });
});

describe('https', () => {
  let tlsServer: LocalServer;
  let cert: { key: string; cert: string };
  before(async () => {
    cert = selfSignedCert('site.test');
    tlsServer = await startServer(
      (req, res) => {
        if (req.url === '/down') {
          res.writeHead(301, { location: `http://site.test:${server.port}/page` });
          return res.end();
        }
        res.end(`tls ok host=${req.headers.host}`);
      },
      { tls: cert },
    );
  });
  after(() => tlsServer.close());
  test('TLS to the pinned address still verifies the certificate for the host name (SNI kept)', async () => {
    const r = await safeFetch(`https://site.test:${tlsServer.port}/`, { settings: TEST_ONLY_ALLOW, resolver: toLoopback, ca: cert.cert });
    assert.equal(r.kind === 'response' && r.text, `tls ok host=site.test:${tlsServer.port}`);
    const wrongName = await safeFetch(`https://other.test:${tlsServer.port}/`, { settings: TEST_ONLY_ALLOW, resolver: toLoopback, ca: cert.cert });
    assert.equal(wrongName.kind, 'error');
    assert.match(wrongName.kind === 'error' ? wrongName.error : '', /altnames|certificate/i);
  });
  test('https -> http downgrade is refused', async () => {
    const r = await safeFetch(`https://site.test:${tlsServer.port}/down`, { settings: TEST_ONLY_ALLOW, resolver: toLoopback, ca: cert.cert });
    assert.equal(r.kind, 'refused');
    assert.equal(r.kind === 'refused' && r.decision.rule, 'deny:redirect-downgrade');
  });
});

describe('DNS rebinding: the connection goes to the checked address', () => {
  test('an answer that changes after the check is never used', async () => {
    // Two servers on the same port: 127.0.0.1 (the checked, allowed address) and 127.0.0.2 (the
    // address a second lookup would return). Only 127.0.0.1 is opted in, and only as an address.
    const good = await startServer((_q, res) => res.end('from 127.0.0.1'));
    const evil = await startServer((_q, res) => res.end('from 127.0.0.2'), { host: '127.0.0.2', port: good.port });
    try {
      let calls = 0;
      const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      const settings: NetworkPolicySettings = { fetchAllowHosts: ['127.0.0.1'], allowPrivateNetwork: false };
      const r = await safeFetch(`http://rebind.example:${good.port}/`, { settings, resolver: rebinding });
      assert.equal(r.kind, 'response');
      assert.equal(r.kind === 'response' && r.text, 'from 127.0.0.1');
      assert.equal(r.kind === 'response' && r.remoteAddress, '127.0.0.1');
      assert.equal(calls, 1, 'one resolution per hop, no second lookup at connect time');
      assert.equal(evil.requests.length, 0);
      // The second answer, had it been checked, is refused: the allowance is not a blanket one.
      const again = await safeFetch(`http://rebind.example:${good.port}/`, { settings, resolver: rebinding });
      assert.equal(again.kind === 'refused' && again.decision.rule, 'deny:ip-loopback');
      assert.equal(evil.requests.length, 0);
    } finally {
      await good.close();
      await evil.close();
    }
  });
  test('with default settings, public-then-loopback answers for one name are refused as a whole', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const r = await safeFetch(`http://rebind.example:${server.port}/page`, { resolver: mixed });
    assert.equal(r.kind === 'refused' && r.decision.rule, 'deny:ip-loopback');
  });
});
