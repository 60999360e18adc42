import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { safeFetch, type NetworkPolicySettings, type Resolver } from '../../../src/core/web';
import { startServer, type LocalServer } from './localServer';

/** TEST-ONLY allowance (see redirectsAndRebinding.test.ts): size and time caps need a server. */
const TEST_ONLY_ALLOW: NetworkPolicySettings = { fetchAllowHosts: ['caps.test'], allowPrivateNetwork: false };
const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

/** An endless stream of zeros: whatever reads it must stop by itself. */
const zeros = () =>
  new Readable({
    read() {
      this.push(Buffer.alloc(64 * 1024));
    },
  });

let server: LocalServer;
let base: string;
let bombBytesSent = 0;

before(async () => {
  server = await startServer((req, res) => {
    const path = req.url ?? '/';
    res.on('error', () => {});
    if (path === '/huge') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const src = zeros().map((b: Buffer) => b.fill(0x61));
      src.pipe(res);
      res.on('close', () => src.destroy());
      return;
    }
    const bomb = /^\/bomb\/(gzip|deflate|br|gzip-gzip)$/.exec(path);
    if (bomb) {
      const kind = bomb[1]!;
      const stage = () => (kind === 'deflate' ? zlib.createDeflate({ level: 9 }) : kind === 'br' ? zlib.createBrotliCompress() : zlib.createGzip({ level: 9 }));
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': kind === 'gzip-gzip' ? 'gzip, gzip' : kind });
      const src = zeros();
      let out: Readable = src.pipe(stage());
      if (kind === 'gzip-gzip') out = out.pipe(zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH }));
      out.on('data', (c: Buffer) => (bombBytesSent += c.length));
      out.pipe(res);
      res.on('close', () => {
        src.destroy();
        out.destroy();
      });
      return;
    }
    if (path === '/slow') {
      // Headers and a first chunk, then a drip that never ends.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk\n');
      const t = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(t));
      return;
    }
    if (path === '/stall') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('before the stall\n');
      return; // never ends, never writes again
    }
    if (path === '/no-headers') return; // never answers
    if (path === '/exact') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('x'.repeat(1000));
    }
    if (path === '/bad-gzip') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return res.end('this is not gzip');
    }
    res.writeHead(404);
    res.end();
  });
  base = `http://caps.test:${server.port}`;
});
after(() => server.close());

const get = (path: string, extra: Parameters<typeof safeFetch>[1] = {}) =>
  safeFetch(`${base}${path}`, { settings: TEST_ONLY_ALLOW, resolver: toLoopback, ...extra });

describe('size caps', () => {
  test('an endless body is cut at 2 MB with a note', async () => {
    const r = await get('/huge');
    assert.equal(r.kind, 'response');
    if (r.kind !== 'response') return;
    assert.equal(r.bytes, 2 * 1024 * 1024);
    assert.equal(r.truncated, true);
    assert.equal(r.truncatedBy, 'size');
    assert.match(r.text, /\[truncated: the response is larger than 2097152 bytes/);
  });
  test('a body exactly at the cap is not called truncated', async () => {
    const r = await get('/exact', { maxBytes: 1000 });
    assert.ok(r.kind === 'response' && r.truncated === false && r.bytes === 1000);
    const over = await get('/exact', { maxBytes: 999 });
    assert.ok(over.kind === 'response' && over.truncated === true && over.bytes === 999);
  });
  for (const kind of ['gzip', 'deflate', 'br', 'gzip-gzip']) {
    test(`an endless ${kind} bomb stops at the decompressed cap with bounded memory`, async () => {
      bombBytesSent = 0;
      const before = process.memoryUsage();
      const r = await get(`/bomb/${kind}`, { maxBytes: 4 * 1024 * 1024 });
      const afterMem = process.memoryUsage();
      assert.equal(r.kind, 'response');
      if (r.kind !== 'response') return;
      assert.equal(r.bytes, 4 * 1024 * 1024);
      assert.equal(r.truncatedBy, 'size');
      // The stream never ends: returning at all proves the cap stops it. Memory grows by roughly
      // the cap, not by the gigabytes the bomb would inflate to.
      const grown = afterMem.rss + afterMem.arrayBuffers - (before.rss + before.arrayBuffers);
      assert.ok(grown < 96 * 1024 * 1024, `memory grew by ${(grown / 1048576).toFixed(1)} MB`);
      assert.ok(bombBytesSent < 2 * 1024 * 1024, `server sent ${bombBytesSent} compressed bytes`);
    });
  }
  test('a corrupt gzip body is an error, not garbage', async () => {
    const r = await get('/bad-gzip');
    assert.equal(r.kind, 'error');
    assert.match(r.kind === 'error' ? r.error : '', /decode/);
  });
});

describe('time caps', () => {
  test('a slow, endless body is cut by the total time cap, keeping what arrived', async () => {
    const r = await get('/slow', { timeoutMs: 600, idleTimeoutMs: 5000 });
    assert.equal(r.kind, 'response');
    if (r.kind !== 'response') return;
    assert.equal(r.truncatedBy, 'time');
    assert.match(r.text, /^first chunk\n\.+/);
    assert.match(r.text, /took longer than 600 ms/);
  });
  test('a stalled body is cut by the idle cap', async () => {
    const r = await get('/stall', { timeoutMs: 10_000, idleTimeoutMs: 300 });
    assert.ok(r.kind === 'response' && r.truncatedBy === 'idle');
    assert.match(r.kind === 'response' ? r.text : '', /^before the stall/);
  });
  test('no headers at all: an error, not a hang', async () => {
    const r = await get('/no-headers', { timeoutMs: 10_000, idleTimeoutMs: 300 });
    assert.equal(r.kind, 'error');
  });
  test('cancellation aborts the request', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await get('/stall', { signal: ac.signal, idleTimeoutMs: 10_000 });
    assert.ok(r.kind === 'error' && r.error === 'Cancelled.');
  });
});
