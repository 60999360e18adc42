// Every webview HTML has a strict CSP; this test fails if it is missing or loosened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildChatHtml } from '../../../src/host/vscode/chat/view/html';

const html = buildChatHtml({
  cspSource: 'https://x.vscode-cdn.net',
  nonce: 'abcdefghijklmnop1234',
  scriptUri: 'https://x.vscode-cdn.net/dist/webview/chat.js',
  styleUri: 'https://x.vscode-cdn.net/dist/webview/chat.css',
});

function csp(doc: string): Map<string, string[]> {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(doc);
  assert.ok(m, 'the webview HTML has no CSP meta tag');
  return new Map(
    m[1]!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

test('the chat HTML has a CSP: default-src none, scripts by nonce only, no unsafe-*', () => {
  const policy = csp(html);
  assert.deepEqual(policy.get('default-src'), ["'none'"]);
  assert.deepEqual(policy.get('script-src'), ["'nonce-abcdefghijklmnop1234'"]);
  assert.deepEqual(policy.get('img-src'), ['https://x.vscode-cdn.net', 'data:']);
  assert.ok(!/unsafe-eval|unsafe-inline|\*/.test([...policy.values()].flat().join(' ')));
});

test('every script tag carries the nonce; no inline handlers', () => {
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.ok(scripts.length > 0);
  for (const s of scripts) assert.match(s, /nonce="abcdefghijklmnop1234"/);
  assert.ok(!/\son[a-z]+=/i.test(html));
});

test('a weak nonce is refused', () => {
  assert.throws(() => buildChatHtml({ cspSource: 's', nonce: 'short', scriptUri: 'a', styleUri: 'b' }));
});

test('the view loads only from dist/webview and media (localResourceRoots), and enables no other resource roots', () => {
  const provider = readFileSync(path.resolve(__dirname, '../../../src/host/vscode/chat/view/chatViewProvider.ts'), 'utf8');
  const roots = /localResourceRoots:\s*\[([^\]]*)\]/.exec(provider);
  assert.ok(roots);
  assert.match(roots[1]!, /dist/);
  assert.match(roots[1]!, /'media'/);
  assert.ok(!/workspaceFolders|homedir|file:/.test(roots[1]!));
});

test('the built webview bundle uses no eval', { skip: !exists('dist/webview/chat.js') && 'run npm run build first' }, () => {
  const js = readFileSync(path.resolve(__dirname, '../../../dist/webview/chat.js'), 'utf8');
  assert.ok(!/\beval\(|new Function\(/.test(js));
});

function exists(rel: string): boolean {
  try {
    readFileSync(path.resolve(__dirname, '../../..', rel));
    return true;
  } catch {
    return false;
  }
}
