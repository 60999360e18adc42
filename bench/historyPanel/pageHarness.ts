/**
 * The history panel's built webview (dist/webview/history.js + .css, inline as in VS Code) in a real
 * Chromium page, with its CSP, answered by the panel's own request handlers over a real HistoryStore in its worker:
 * what the panel does in VS Code minus VS Code's message relay. `acquireVsCodeApi` is a small stub
 * script (allowed by the nonce) that hands requests to Node; answers come back as window messages.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HistoryStore } from '../../src/core/history';
import { buildHistoryHtml } from '../../src/host/vscode/history/historyHtml';
import { run } from '../../src/host/vscode/history/handlers/run';
import { runs } from '../../src/host/vscode/history/handlers/runs';
import { search } from '../../src/host/vscode/history/handlers/search';
import type { HistoryHandlerContext } from '../../src/host/vscode/history/handlers/types';
import { validateHistoryToHost } from '../../src/protocol/historyValidate';
import type { HistoryStatusView } from '../../src/protocol/history';

const repo = path.resolve(__dirname, '../..');
const NONCE = 'benchNonce0123456789abcdef';
const STUB = `window.acquireVsCodeApi = () => ({ postMessage: (m) => window.ppHost(m), getState: () => undefined, setState: () => undefined });`;

export interface PanelPage {
  page: Page;
  browser: Browser;
  /** Host-side time of each request (validation, handler, the store's worker), by type. */
  hostMs: Map<string, number[]>;
  /** Loads the panel afresh; resolves with the ms from navigation start, and from the panel's script start, to the first rows drawn. */
  load(): Promise<{ fromNavigation: number; fromScript: number }>;
  close(): Promise<void>;
}

export async function openPanelPage(store: HistoryStore, chromiumPath = process.env.PATCHPILOT_CHROMIUM ?? '/usr/bin/chromium'): Promise<PanelPage> {
  const status: HistoryStatusView = { path: store.path, available: true, retention: { source: 'default: keep everything' }, problems: [], trusted: true };
  const ctx = {
    service: { store: async () => store, status: async () => status },
    log: { info: () => undefined, warn: () => undefined },
  } as unknown as HistoryHandlerContext;
  const hostMs = new Map<string, number[]>();
  const server = http.createServer(async (req, res) => {
    const url = req.url ?? '/';
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    if (url === '/' || url.startsWith('/index.html')) {
      // As the panel does with an open store: the status and the first page go into the HTML.
      const t0 = performance.now();
      const boot = { status, ...(await runs({ offset: 0, limit: 100 }, ctx)) };
      hostMs.set('boot', [...(hostMs.get('boot') ?? []), performance.now() - t0]);
      const dist = path.join(repo, 'dist', 'webview');
      const html = buildHistoryHtml({
        cspSource: origin,
        nonce: NONCE,
        script: readFileSync(path.join(dist, 'history.js'), 'utf8'),
        style: readFileSync(path.join(dist, 'history.css'), 'utf8'),
        scriptUris: [`${origin}/stub.js`],
        boot,
      });
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    } else if (url === '/stub.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(STUB);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.exposeFunction('ppHost', async (raw: unknown) => {
    const t0 = performance.now();
    const checked = validateHistoryToHost(raw);
    if (!checked.ok) return;
    const { id, type, payload } = checked.message;
    let result: unknown;
    if (type === 'history/ready') result = status;
    else if (type === 'history/runs') result = await runs(payload as never, ctx);
    else if (type === 'history/run') result = await run(payload as never, ctx);
    else if (type === 'history/search') result = await search(payload as never, ctx);
    else result = { ok: false, message: 'not in the benchmark' };
    hostMs.set(type, [...(hostMs.get(type) ?? []), performance.now() - t0]);
    await page.evaluate((m) => window.postMessage(m, '*'), { kind: 'response', id, type, ok: true, result } as never);
  });
  return {
    page,
    browser,
    hostMs,
    async load() {
      await page.goto(`${origin}/index.html`);
      await page.waitForFunction(
        () => (window as unknown as { __ppHistoryPerf?: { firstRows?: number } }).__ppHistoryPerf?.firstRows !== undefined,
        undefined,
        { timeout: 60_000 },
      );
      return page.evaluate(() => {
        const p = (window as unknown as { __ppHistoryPerf: { firstRows: number; scriptStart: number } }).__ppHistoryPerf;
        return { fromNavigation: p.firstRows, fromScript: p.firstRows - p.scriptStart };
      });
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
}
