// web_search against local HTTP servers speaking SearXNG's and Brave Search's JSON, through the
// same SSRF-safe fetch as web_fetch: the query and key reach the provider, results are parsed and
// cleaned, errors are explained, the key never follows a redirect to another origin, cloud metadata
// addresses stay blocked; with nothing configured the keyless DuckDuckGo provider reads its HTML
// results page (fixture in test/fixtures/websearch), and "off" offers nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { resolveSettings } from '../../../../src/core/config';
import { chooseProvider, createWebSearcher, brave, duckduckgo, searxng } from '../../../../src/core/web/search';
import { webSearchTool } from '../../../../src/core/tools/webSearch';
import { wireCapabilities } from '../../../../src/core/session/capabilities';
import { startServer } from '../localServer';
import { tempWorkspace } from '../../../unit/tools/helpers';
import { fakeToolContext } from '../../../support/fakes';
import { MemorySecretStore } from '../../../support/fakes/memorySecretStore';

const network = { fetchAllowHosts: [] as string[], allowPrivateNetwork: false };
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const signal = () => new AbortController().signal;

describe('web_search: SearXNG', () => {
  test('GET <instance>/search?q=...&format=json; results become numbered titles, URLs and snippets', async () => {
    const seen: URL[] = [];
    const server = await startServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      seen.push(url);
      json(res, 200, {
        query: url.searchParams.get('q'),
        results: [
          { title: 'Node.js <b>test</b> runner', url: 'https://nodejs.org/api/test.html', content: 'The node:test module &amp; friends', engine: 'x' },
          { title: 'no url', content: 'dropped' },
          { title: 'javascript', url: 'javascript:alert(1)', content: 'dropped too' },
        ],
      });
    });
    try {
      const search = createWebSearcher(searxng(`http://127.0.0.1:${server.port}/searx/`), network);
      const ws = tempWorkspace();
      try {
        const r = await webSearchTool.run({ query: 'node test runner' }, fakeToolContext(ws.root, { search }));
        assert.equal(r.ok, true, r.output);
        assert.equal(
          r.output,
          'Results for "node test runner" (searxng):\n1. Node.js test runner\n   https://nodejs.org/api/test.html\n   The node:test module & friends',
        );
      } finally {
        ws.cleanup();
      }
      assert.equal(seen[0]!.pathname, '/searx/search');
      assert.deepEqual(Object.fromEntries(seen[0]!.searchParams), { q: 'node test runner', format: 'json' });
    } finally {
      await server.close();
    }
  });

  test("an instance without the json format (403) is explained; an answer that is not SearXNG's says so", async () => {
    let status = 403;
    const server = await startServer((_req, res) => (status === 403 ? json(res, 403, {}) : json(res, 200, { hello: 'world' })));
    try {
      const search = createWebSearcher(searxng(`http://127.0.0.1:${server.port}`), network);
      assert.deepEqual(await search('q', signal()), {
        provider: 'searxng',
        error: 'the instance refused format=json (403): it must list json under search.formats in its settings.yml',
      });
      status = 200;
      assert.deepEqual(await search('q', signal()), { provider: 'searxng', error: 'the answer has no "results" list (is this a SearXNG instance?)' });
    } finally {
      await server.close();
    }
  });

  test("the provider's host is opted in, cloud metadata addresses are not", async () => {
    const search = createWebSearcher(searxng('http://169.254.169.254/'), network);
    const r = await search('q', signal());
    assert.ok('error' in r);
    assert.match(r.error, /refused by the network policy \(deny:/);
  });
});

describe('web_search: Brave Search', () => {
  test('the key goes in X-Subscription-Token to the endpoint; web.results are parsed, HTML removed, at most ten', async () => {
    const headers: http.IncomingHttpHeaders[] = [];
    const server = await startServer((req, res) => {
      headers.push(req.headers);
      const results = Array.from({ length: 12 }, (_, i) => ({
        title: `Result <strong>${i}</strong>`,
        url: `https://example.com/${i}`,
        description: `about <strong>thing</strong> ${i}`,
      }));
      json(res, 200, { type: 'search', query: { original: 'x' }, web: { type: 'search', results } });
    });
    try {
      const search = createWebSearcher(brave('brave-key-123', `http://127.0.0.1:${server.port}/res/v1/web/search`), network);
      const r = await search('thing', signal());
      assert.ok('hits' in r);
      assert.equal(r.hits.length, 10);
      assert.deepEqual(r.hits[1], { title: 'Result 1', url: 'https://example.com/1', snippet: 'about thing 1' });
      assert.equal(headers[0]!['x-subscription-token'], 'brave-key-123');
      assert.match(String(headers[0]!.accept), /application\/json/);
    } finally {
      await server.close();
    }
  });

  test('nothing found (no web section) is an empty result; a refused key and a rate limit are explained', async () => {
    let mode = 'empty';
    const server = await startServer((_req, res) => {
      if (mode === 'empty') return json(res, 200, { type: 'search', query: { original: 'x' } });
      if (mode === '401')
        return json(res, 401, {
          type: 'ErrorResponse',
          error: { status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' },
        });
      return json(res, 429, { type: 'ErrorResponse', error: { status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' } });
    });
    try {
      const search = createWebSearcher(brave('k', `http://127.0.0.1:${server.port}/`), network);
      assert.deepEqual(await search('q', signal()), { provider: 'brave', hits: [] });
      mode = '401';
      assert.deepEqual(await search('q', signal()), {
        provider: 'brave',
        error: 'Brave Search refused the API key (401): The provided subscription token is invalid.',
      });
      mode = '429';
      assert.deepEqual(await search('q', signal()), {
        provider: 'brave',
        error: 'Brave Search rate limit or quota reached (429): Request rate limit exceeded for plan.',
      });
    } finally {
      await server.close();
    }
  });

  test('a redirect to another origin goes without the key', async () => {
    const elsewhere: http.IncomingHttpHeaders[] = [];
    const other = await startServer((req, res) => {
      elsewhere.push(req.headers);
      json(res, 200, { web: { results: [{ title: 'moved', url: 'https://example.com/', description: '' }] } });
    });
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${other.port}/moved` });
      res.end();
    });
    try {
      const search = createWebSearcher(brave('secret-key', `http://127.0.0.1:${server.port}/`), { fetchAllowHosts: ['localhost'], allowPrivateNetwork: false });
      const r = await search('q', signal());
      assert.ok('hits' in r, JSON.stringify(r));
      assert.equal(elsewhere.length, 1);
      assert.equal(elsewhere[0]!['x-subscription-token'], undefined);
    } finally {
      await server.close();
      await other.close();
    }
  });
});

describe('web_search: DuckDuckGo (keyless)', () => {
  const page = readFileSync(path.join(__dirname, '..', '..', '..', 'fixtures', 'websearch', 'duckduckgo-results.html'), 'utf8');
  const html = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=UTF-8' });
    res.end(body);
  };

  test('GET <endpoint>?q=...; the results page becomes hits: redirects unwrapped, ads skipped, tags and entities out', async () => {
    const seen: URL[] = [];
    const server = await startServer((req, res) => {
      seen.push(new URL(req.url!, 'http://x'));
      html(res, 200, page);
    });
    try {
      const search = createWebSearcher(duckduckgo(`http://127.0.0.1:${server.port}/html/`), network);
      const ws = tempWorkspace();
      try {
        const r = await webSearchTool.run({ query: 'node test runner' }, fakeToolContext(ws.root, { search }));
        assert.equal(r.ok, true, r.output);
        assert.equal(
          r.output,
          [
            'Results for "node test runner" (duckduckgo):',
            '1. Test runner | Node.js v20 Documentation',
            '   https://nodejs.org/api/test.html',
            "   The node:test module facilitates the creation of JavaScript tests & it's stable.",
            '2. Writing tests with "node --test"',
            '   https://example.org/blog/node-test?a=1&b=2',
            '   A walk through describe, test and mocks.',
          ].join('\n'),
        );
      } finally {
        ws.cleanup();
      }
      assert.equal(seen[0]!.pathname, '/html/');
      assert.deepEqual(Object.fromEntries(seen[0]!.searchParams), { q: 'node test runner' });
    } finally {
      await server.close();
    }
  });

  test('no results is an empty list; a challenge page, a refusal and a page that is not DuckDuckGo are explained', async () => {
    let answer: [number, string] = [200, '<html><body><div class="no-results">No results.</div></body></html>'];
    const server = await startServer((_req, res) => html(res, ...answer));
    try {
      const search = createWebSearcher(duckduckgo(`http://127.0.0.1:${server.port}/html/`), network);
      assert.deepEqual(await search('zzzz', signal()), { provider: 'duckduckgo', hits: [] });
      answer = [202, '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>'];
      const challenge = await search('q', signal());
      assert.ok('error' in challenge);
      assert.match(challenge.error, /asked for a challenge.*searxng or brave/);
      answer = [403, ''];
      assert.match(((await search('q', signal())) as { error: string }).error, /refusing automated searches from this address \(403\)/);
      answer = [200, '<html><body><p>hello</p></body></html>'];
      assert.deepEqual(await search('q', signal()), { provider: 'duckduckgo', error: 'the page has no results list (is this DuckDuckGo?)' });
    } finally {
      await server.close();
    }
  });

  test('the default endpoint goes through the network policy like every provider (a metadata address stays blocked)', async () => {
    assert.match(duckduckgo().request('a b').url, /^https:\/\/[^/]+\/html\/\?q=a\+b$/);
    const r = await createWebSearcher(duckduckgo('http://169.254.169.254/html/'), network)('q', signal());
    assert.ok('error' in r);
    assert.match(r.error, /refused by the network policy \(deny:/);
  });
});

describe('web_search: configuration', () => {
  const config = (values: Record<string, unknown>, webSearchKey?: string, scope: 'user' | 'workspace' = 'user', trusted = true) =>
    resolveSettings({ layers: [{ scope, origin: scope, values }], trusted, webSearchKey });

  test('keyless DuckDuckGo unless configured: a SearXNG url, a Brave key, or an explicit provider (off included)', () => {
    assert.equal((chooseProvider(config({}).settings.webSearch, undefined) as { name: string }).name, 'duckduckgo');
    assert.equal(
      (
        chooseProvider(
          config({ 'patchpilot.webSearch.provider': 'duckduckgo', 'patchpilot.webSearch.url': 'http://127.0.0.1:9/html/' }).settings.webSearch,
          'k',
        ) as { name: string }
      ).name,
      'duckduckgo',
    );
    assert.equal(
      (chooseProvider(config({ 'patchpilot.webSearch.url': 'http://127.0.0.1:8888' }).settings.webSearch, undefined) as { name: string }).name,
      'searxng',
    );
    assert.equal((chooseProvider(config({}).settings.webSearch, 'k') as { name: string }).name, 'brave');
    assert.equal(chooseProvider(config({ 'patchpilot.webSearch.provider': 'off' }).settings.webSearch, 'k'), undefined);
    assert.match(
      (chooseProvider(config({ 'patchpilot.webSearch.provider': 'brave' }).settings.webSearch, undefined) as { problem: string }).problem,
      /no Brave Search API key/,
    );
    assert.match(
      (chooseProvider(config({ 'patchpilot.webSearch.provider': 'searxng' }).settings.webSearch, undefined) as { problem: string }).problem,
      /webSearch\.url/,
    );
  });

  test('an untrusted workspace cannot turn search on or aim it (its provider "off" still counts)', () => {
    const r = config({ 'patchpilot.webSearch.url': 'http://evil.example/', 'patchpilot.webSearch.provider': 'brave' }, 'k', 'workspace', false);
    assert.deepEqual(r.ignored.map((i) => i.key).sort(), ['patchpilot.webSearch.provider', 'patchpilot.webSearch.url']);
    assert.equal(r.settings.webSearch.url, undefined);
    assert.equal(config({ 'patchpilot.webSearch.provider': 'off' }, 'k', 'workspace', false).settings.webSearch.provider, 'off');
  });

  test('the wiring offers web_search unless it is off', async () => {
    const notes: string[] = [];
    const notifier = { info: () => undefined, warn: (m: string) => notes.push(m), error: () => undefined };
    const secrets = new MemorySecretStore();
    const ws = tempWorkspace();
    try {
      const none = config({ 'patchpilot.webSearch.provider': 'off' });
      const off = await wireCapabilities({ root: ws.root, config: none, settings: none.settings, notifier, secrets });
      assert.deepEqual(
        off.tools.map((t) => t.name),
        ['spawn_subagent'],
      );
      assert.equal(off.search, undefined);
      const keyless = config({});
      assert.deepEqual(
        (await wireCapabilities({ root: ws.root, config: keyless, settings: keyless.settings, notifier, secrets })).tools.map((t) => t.name),
        ['spawn_subagent', 'web_search'],
      );
      const on = config({ 'patchpilot.webSearch.url': 'http://127.0.0.1:8888' });
      const wired = await wireCapabilities({ root: ws.root, config: on, settings: on.settings, notifier, secrets });
      assert.deepEqual(
        wired.tools.map((t) => t.name),
        ['spawn_subagent', 'web_search'],
      );
      const broken = config({ 'patchpilot.webSearch.provider': 'brave' });
      await wireCapabilities({ root: ws.root, config: broken, settings: broken.settings, notifier, secrets });
      assert.match(notes.join('\n'), /no Brave Search API key/);
    } finally {
      ws.cleanup();
    }
  });
});
