// URL-mode elicitation (clientFeatures.ts): a link to this machine or a private network is declined
// before anyone is asked, in every spelling of such an address; a public https link is asked about.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { installElicitation } from '../../../src/core/mcp/clientFeatures';
import type { ElicitationRequest, Elicitor } from '../../../src/core/ports/elicitor';

const LOCAL_HOSTS = [
  '127.0.0.1',
  '127.1',
  '0',
  '017700000001',
  '0x7f.1',
  '2130706433',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '169.254.169.254',
  '10.0.0.1',
  '192.168.1.1',
  '172.16.0.1',
  '100.64.0.1',
  '[fc00::1]',
  'localhost',
  'router.lan',
  'admin.internal',
  'printer.local',
];
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
});
