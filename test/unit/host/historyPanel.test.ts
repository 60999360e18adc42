// The history panel's host logic in plain Node: its HTML's CSP, the validation
// of what the panel sends, the sides of a recorded patch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildHistoryHtml } from '../../../src/host/vscode/history/historyHtml';
import { GAP, patchSides } from '../../../src/host/vscode/history/patchSidesLogic';
import { validateHistoryToHost } from '../../../src/protocol/historyValidate';
import type { PatchRecord } from '../../../src/core/history';

const SCRIPT = 'console.log("</script><img src=x onerror=alert(1)>");';
const html = buildHistoryHtml({
  cspSource: 'https://x.vscode-cdn.net',
  nonce: 'abcdefghijklmnop1234',
  script: SCRIPT,
  style: 'body { color: red } /* </style><img src=x onerror=alert(1)> */',
});

test('the history HTML has the strict CSP: default-src none, scripts and styles by nonce, images from the webview only', () => {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
  assert.ok(m, 'no CSP');
  const policy = new Map(
    m[1]!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
  assert.deepEqual(policy.get('default-src'), ["'none'"]);
  assert.deepEqual(policy.get('script-src'), ["'nonce-abcdefghijklmnop1234'"]);
  assert.deepEqual(policy.get('style-src'), ['https://x.vscode-cdn.net', "'nonce-abcdefghijklmnop1234'"]);
  assert.deepEqual(policy.get('img-src'), ['https://x.vscode-cdn.net', 'data:']);
  assert.ok(!/unsafe-eval|unsafe-inline|\*/.test(m[1]!));
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)];
  assert.equal(scripts.length, 1);
  for (const s of scripts) assert.match(s[0], /nonce="abcdefghijklmnop1234"/);
  assert.throws(() => buildHistoryHtml({ cspSource: 's', nonce: 'short', script: '', style: '' }));
});

test('the inline bundle cannot end its element early', () => {
  assert.equal((html.match(/<\/script>/g) ?? []).length, 1, 'only the real closing tag');
  assert.equal((html.match(/<\/style>/g) ?? []).length, 1);
  assert.ok(html.includes('console.log("<\\/script><img'));
});

test('the first page goes in as a JSON data block that cannot end early, and reads back as it was', () => {
  const boot = { runs: [{ goal: '</script><script>alert(1)</script><!-- x' }], total: 1 };
  const page = buildHistoryHtml({ cspSource: 'c', nonce: 'abcdefghijklmnop1234', script: 'x()', style: '', boot });
  const block = /<script type="application\/json" id="pp-boot">([\s\S]*?)<\/script>/.exec(page);
  assert.ok(block);
  assert.ok(!block[1]!.includes('<'), 'no < inside the data block');
  assert.deepEqual(JSON.parse(block[1]!), boot);
  assert.equal((page.match(/<\/script>/g) ?? []).length, 2, 'the data block and the panel script, nothing else');
  assert.doesNotMatch(page.split('id="pp-boot"')[0]!, /alert/);
});

test('the panel loads only from dist/webview and media', () => {
  const src = readFileSync(path.resolve(__dirname, '../../../src/host/vscode/history/historyPanel.ts'), 'utf8');
  const roots = /return \[([^\]]*)\];/.exec(src.slice(src.indexOf('private roots()')));
  assert.ok(roots);
  assert.match(roots[1]!, /'dist', 'webview'/);
  assert.match(roots[1]!, /'media'/);
  assert.equal((roots[1]!.match(/joinPath/g) ?? []).length, 2);
});

const req = (type: string, payload: unknown) => ({ kind: 'request', id: 3, type, payload });

test('panel requests pass only with their exact shape; forged and oversized ones are dropped', () => {
  assert.ok(validateHistoryToHost(req('history/runs', { offset: 0, limit: 200, since: 1 })).ok);
  assert.ok(validateHistoryToHost(req('history/search', { query: 'parser', types: ['runs', 'tests'], prefix: true })).ok);
  assert.ok(validateHistoryToHost(req('history/revert', { runId: 'a-1', patchId: 'b_2' })).ok);
  const bad = [
    req('history/delete', { runId: '../../etc' }),
    req('history/delete', { runId: 'a', confirmed: true }),
    req('history/runs', { offset: -1, limit: 10 }),
    req('history/runs', { offset: 0, limit: 1e9 }),
    req('history/runs', { offset: 0.5, limit: 10 }),
    req('history/search', { query: 'x', types: ['runs', 'secrets'], prefix: false }),
    req('history/search', { query: 'x'.repeat(2_000), types: [], prefix: false }),
    req('history/export', { runId: 'a', format: 'html' }),
    req('history/exec', { command: 'rm -rf ~' }),
    req('chat/send', { text: 'hi' }),
    { kind: 'request', id: 1, type: 'history/ready', payload: {}, extra: 1 },
  ];
  for (const b of bad) assert.equal(validateHistoryToHost(b).ok, false, JSON.stringify(b).slice(0, 80));
});

const patch = (over: Partial<PatchRecord>): PatchRecord => ({
  id: 'p',
  runId: 'r',
  text: '',
  files: ['a.js'],
  acceptedHunks: [],
  rejectedHunks: [],
  reversePatch: null,
  appliedAt: null,
  time: 0,
  snapshots: null,
  ...over,
});

test('a recorded patch shows its snapshots, or else its own hunks with the gaps marked', () => {
  assert.deepEqual(patchSides(patch({ snapshots: [{ path: 'a.js', before: null, after: 'new\n' }] })), [
    { path: 'a.js', before: '', after: 'new\n', source: 'recorded' },
  ]);
  const text = ['--- a/a.js', '+++ b/a.js', '@@ -1,2 +1,2 @@', '-one', '+ONE', ' two', '@@ -9,2 +9,2 @@', ' nine', '-ten', '+TEN', ''].join('\n');
  const [side] = patchSides(patch({ text }));
  assert.equal(side!.source, 'hunks');
  assert.equal(side!.before, ['one', 'two', GAP, 'nine', 'ten'].join('\n'));
  assert.equal(side!.after, ['ONE', 'two', GAP, 'nine', 'TEN'].join('\n'));
  assert.equal(patchSides(patch({ text: 'garbage' }))[0]!.after, 'garbage');
});
