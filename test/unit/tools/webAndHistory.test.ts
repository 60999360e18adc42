import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeFetch } from '../../../src/core/web';
import { openHistoryStore } from '../../../src/core/history';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { webFetchTool } from '../../../src/core/tools/webFetch';
import { searchHistoryTool } from '../../../src/core/tools/searchHistory';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([webFetchTool, searchHistoryTool]);

async function withServer(fn: (base: string, hits: string[]) => Promise<void>): Promise<void> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/missing') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Docs</h1><p>Use <code>toISOString()</code>.</p></body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('web_fetch', () => {
  test('fetches through safeFetch (loopback allowed only by an explicit test setting) and returns readable text', async () => {
    const ws = tempWorkspace();
    try {
      await withServer(async (base) => {
        const web = (url: string, signal: AbortSignal) => safeFetch(url, { signal, settings: { fetchAllowHosts: ['127.0.0.1'], allowPrivateNetwork: false } });
        const ctx = fakeToolContext(ws.root, { mode: 'auto', web });
        const r = await tools.invoke('web_fetch', { url: `${base}/docs` }, ctx);
        assert.equal(r.ok, true, r.output);
        assert.match(r.output, /^HTTP 200 http:\/\/127\.0\.0\.1:\d+\/docs \(text\/html/);
        assert.match(r.output, /Docs/);
        assert.match(r.output, /toISOString\(\)/);
        assert.doesNotMatch(r.output, /<p>/);
        const missing = await tools.invoke('web_fetch', { url: `${base}/missing` }, ctx);
        assert.equal(missing.ok, false);
        assert.match(missing.output, /^HTTP 404/);
      });
    } finally {
      ws.cleanup();
    }
  });

  test('without the opt-in, loopback is refused by the network policy', async () => {
    const ws = tempWorkspace();
    try {
      await withServer(async (base, hits) => {
        const ctx = fakeToolContext(ws.root, { mode: 'auto', web: (url, signal) => safeFetch(url, { signal }) });
        const r = await tools.invoke('web_fetch', { url: `${base}/docs` }, ctx);
        assert.equal(r.ok, false);
        assert.match(r.output, /^web_fetch: refused|^refused/);
        assert.deepEqual(hits, []);
      });
    } finally {
      ws.cleanup();
    }
  });

  test('a URL carrying data to a host not seen in this run asks first; declined means no request', async () => {
    const ws = tempWorkspace();
    try {
      await withServer(async (base, hits) => {
        const approver = new ScriptedApprover({ action: () => ({ approved: false }) });
        const web = (url: string, signal: AbortSignal) => safeFetch(url, { signal, settings: { fetchAllowHosts: ['127.0.0.1'], allowPrivateNetwork: false } });
        const ctx = fakeToolContext(ws.root, { mode: 'auto', web, approver });
        const r = await tools.invoke('web_fetch', { url: `${base}/x?d=${'A'.repeat(80)}` }, ctx);
        assert.equal(r.ok, false);
        assert.equal(approver.actionRequests[0]!.kind, 'fetch');
        assert.match(approver.actionRequests[0]!.reason, /across the URL/);
        assert.deepEqual(hits, []);
      });
    } finally {
      ws.cleanup();
    }
  });
});

describe('search_history', () => {
  test('finds observations of earlier runs in a real sql.js store on disk', async () => {
    const ws = tempWorkspace();
    const store = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
    try {
      const runId = await store.startRun({ goal: 'fix dates' });
      await store.recordObservation({
        runId,
        tool: 'read_file',
        insight: 'formatDate in src/date.ts pads months but not days',
        result: 'function formatDate(d) { ... padStart(2) ... }',
        isError: false,
        path: 'src/date.ts',
      });
      const ctx = fakeToolContext(ws.root, { history: store });
      const r = await tools.invoke('search_history', { query: 'formatDate days' }, ctx);
      assert.equal(r.ok, true);
      assert.match(r.output, /^- \[\d{4}-\d\d-\d\d, read_file src\/date\.ts\] formatDate in src\/date\.ts pads months but not days/);
      assert.match((await tools.invoke('search_history', { query: 'kubernetes' }, ctx)).output, /nothing found/);
      assert.match((await tools.invoke('search_history', { query: 'x' }, fakeToolContext(ws.root))).output, /no history database is open/);
    } finally {
      await store.close();
      ws.cleanup();
    }
  });
});
