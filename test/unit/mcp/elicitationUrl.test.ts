// URL-mode elicitation (clientFeatures.ts): a link to this machine or a private network is declined
// before anyone is asked, in every spelling of such an address; a public https link is asked about.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { installElicitation } from '../../../src/core/mcp/clientFeatures';
import type { ElicitationRequest, Elicitor } from '../../../src/core/ports/elicitor';
import { LOCAL_HOSTS } from '../../support/localAddressSpellings';

const LINKS = [
  ...LOCAL_HOSTS.flatMap((h) => [`http://${h}/admin?do=reset`, `https://${h}:8443/`]),
  'file:///etc/passwd',
  'javascript:alert(1)',
  'https://user:pw@example.com/',
];

function handlerFor(elicitor: Elicitor): (params: unknown) => Promise<unknown> {
  let handler: ((req: { params: unknown }, extra: { signal: AbortSignal }) => Promise<unknown>) | undefined;
  const client = { setRequestHandler: (_schema: unknown, h: typeof handler) => (handler = h) } as unknown as Client;
  installElicitation(client, 'srv', elicitor);
  return (params) => handler!({ params }, { signal: new AbortController().signal });
}

describe('URL-mode elicitation', () => {
  test('links to local or private addresses (every spelling) and non-web links are declined unasked', async () => {
    const asked: ElicitationRequest[] = [];
    const ask = handlerFor({ elicit: async (r) => (asked.push(r), { action: 'accept' }) });
    for (const url of LINKS) {
      assert.deepEqual(await ask({ mode: 'url', message: 'please open', url, elicitationId: 'e1' }), { action: 'decline' }, url);
    }
    assert.equal(asked.length, 0);
  });

  test('a public https link is asked about', async () => {
    const asked: ElicitationRequest[] = [];
    const ask = handlerFor({ elicit: async (r) => (asked.push(r), { action: 'accept' }) });
    assert.deepEqual(await ask({ mode: 'url', message: 'sign in', url: 'https://example.com/authorize', elicitationId: 'e2' }), { action: 'accept' });
    assert.equal(asked.length, 1);
  });

  test('the link is shown as it will open: nothing invisible, a look-alike host in punycode', async () => {
    const asked: ElicitationRequest[] = [];
    const ask = handlerFor({ elicit: async (r) => (asked.push(r), { action: 'decline' }) });
    const shapes: [string, RegExp][] = [
      ['https://example.com/auth\u202Efdp.exe', /^https:\/\/example\.com\/auth%E2%80%AEfdp\.exe$/],
      ['https://example.com/a\tb\nc d', /^https:\/\/example\.com\/abc%20d$/],
      ['https://ex\u0430mple.com/login', /^https:\/\/xn--exmple-4nf\.com\/login$/],
    ];
    for (const [url] of shapes) await ask({ mode: 'url', message: 'sign in', url, elicitationId: 'e3' });
    assert.equal(asked.length, shapes.length);
    asked.forEach((r, i) => {
      assert.ok(r.mode === 'url');
      assert.match(r.url, shapes[i]![1]);
      assert.doesNotMatch(r.url, /[\s\u0080-\u{10FFFF}]/u, 'an invisible or non-ASCII character reached the question');
    });
  });
});
