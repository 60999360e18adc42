import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUrl, DEFAULT_NETWORK_SETTINGS, resolveChecked, safeFetch, type Resolver } from '../../../src/core/web';

const refusal = (u: string, settings = DEFAULT_NETWORK_SETTINGS) => {
  const r = checkUrl(u, settings);
  return 'refusal' in r ? r.refusal : undefined;
};

describe('URL checks before any network activity', () => {
  const cases: [string, string][] = [
    ['http://127.1/', 'deny:ip-loopback'],
    ['http://0/', 'deny:ip-unspecified'],
    ['http://017700000001/', 'deny:ip-loopback'],
    ['http://0x7f.1/', 'deny:ip-loopback'],
    ['http://2130706433/', 'deny:ip-loopback'],
    ['http://0x7f000001:8080/x', 'deny:ip-loopback'],
    ['http://[::1]/', 'deny:ip-loopback'],
    ['http://[::ffff:127.0.0.1]/', 'deny:ip-loopback'],
    ['http://[::ffff:7f00:1]/', 'deny:ip-loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'deny:ip-loopback'],
    ['http://[fe80::1]/', 'deny:ip-link-local'],
    ['http://[fe80::1%25eth0]/', 'deny:url-invalid'],
    ['http://169.254.169.254/latest/meta-data/', 'deny:cloud-metadata'],
    ['http://[fd00:ec2::254]/', 'deny:cloud-metadata'],
    ['http://100.100.100.200/', 'deny:cloud-metadata'],
    ['http://100.64.0.1/', 'deny:ip-shared-cgnat'],
    ['http://10.0.0.1/', 'deny:ip-private'],
    ['http://192.168.1.1/', 'deny:ip-private'],
    ['http://172.16.0.1/', 'deny:ip-private'],
    ['http://[fc00::1]/', 'deny:ip-unique-local'],
    ['http://[64:ff9b::10.0.0.1]/', 'deny:ip-private'],
    ['http://[2002:7f00:1::]/', 'deny:ip-loopback'],
    ['http://%31%32%37.0.0.1/', 'deny:ip-loopback'],
    ['http://127.0.0.1%2e/', 'deny:ip-loopback'],
    ['http://①②⑦.0.0.1/', 'deny:ip-loopback'],
    ['http://0177.1/', 'deny:ip-loopback'],
    ['http://127.000.000.001/', 'deny:ip-loopback'],
    ['http://0300.0250.1.1/', 'deny:ip-private'],
    ['http://192.168.257/', 'deny:ip-private'],
    ['http://3232235777/', 'deny:ip-private'],
    ['http://[::ffff:0.0.0.0]/', 'deny:ip-unspecified'],
    ['http://[2002:a9fe:a9fe::1]/', 'deny:cloud-metadata'],
    ['http://[0000:0000:0000:0000:0000:0000:0000:0001]/', 'deny:ip-loopback'],
    ['http://127。0。0。1/', 'deny:ip-loopback'],
    ['http:/127.0.0.1/', 'deny:ip-loopback'],
    ['HTTP://127.0.0.1/', 'deny:ip-loopback'],
    ['http://127.0.0.1:80@evil.example/', 'deny:url-credentials'],
    ['http://ｌｏｃａｌｈｏｓｔ/', 'deny:local-hostname'],
    ['http://localhost/', 'deny:local-hostname'],
    ['http://localhost./', 'deny:local-hostname'],
    ['http://LOCALHOST:3000/', 'deny:local-hostname'],
    ['http://api.localhost/', 'deny:local-hostname'],
    ['http://metadata.google.internal/', 'deny:local-hostname'],
    ['http://printer.local/', 'deny:local-hostname'],
    ['http://wiki/', 'deny:single-label-host'],
    ['http://intranet/', 'deny:local-hostname'],
    ['file:///etc/passwd', 'deny:url-scheme'],
    ['gopher://127.0.0.1:6379/_INFO', 'deny:url-scheme'],
    ['ftp://example.com/x', 'deny:url-scheme'],
    ['data:text/html,<script>1</script>', 'deny:url-scheme'],
    ['javascript:alert(1)', 'deny:url-scheme'],
    ['ws://example.com/', 'deny:url-scheme'],
    ['http://u@127.0.0.1/', 'deny:url-credentials'],
    ['http://u:p@example.com/', 'deny:url-credentials'],
    ['https://:p@example.com/', 'deny:url-credentials'],
    ['not a url', 'deny:url-invalid'],
    ['/relative/path', 'deny:url-invalid'],
  ];
  for (const [url, rule] of cases) {
    test(`${url} -> ${rule}`, () => {
      const d = refusal(url);
      assert.ok(d, `${url} must be refused`);
      assert.equal(d.verdict, 'deny');
      assert.equal(d.rule, rule);
      assert.ok(d.reason.length > 10);
    });
  }
  test('public names and addresses pass the static checks', () => {
    for (const u of ['https://example.com/a?b=c', 'http://8.8.8.8/', 'https://[2606:4700::1111]/', 'HTTPS://Example.COM./x']) {
      assert.equal(refusal(u), undefined, u);
    }
    const r = checkUrl('HTTPS://Example.COM./x', DEFAULT_NETWORK_SETTINGS);
    assert.ok(!('refusal' in r) && r.host === 'example.com');
  });
  test('opt-ins are explicit: allowlisted name, address or CIDR; metadata never', () => {
    const s = { fetchAllowHosts: ['localhost', '10.1.0.0/16', '127.0.0.1'], allowPrivateNetwork: false };
    assert.equal(refusal('http://localhost:3000/', s), undefined);
    assert.equal(refusal('http://10.1.2.3/', s), undefined);
    assert.equal(refusal('http://10.2.0.1/', s)?.rule, 'deny:ip-private');
    assert.equal(refusal('http://127.1/', s), undefined);
    assert.equal(refusal('http://127.0.0.2/', s)?.rule, 'deny:ip-loopback');
    const all = { fetchAllowHosts: ['169.254.169.254'], allowPrivateNetwork: true };
    assert.equal(refusal('http://192.168.0.1/', all), undefined);
    assert.equal(refusal('http://169.254.169.254/', all)?.rule, 'deny:cloud-metadata');
  });
});

describe('DNS answers: every address checked', () => {
  const fixed =
    (answers: { address: string; family: number }[]): Resolver =>
    async () =>
      answers;
  test('mixed A/AAAA answers: one blocked address refuses the host', async () => {
    for (const answers of [
      [
        { address: '93.184.216.34', family: 4 },
        { address: '::1', family: 6 },
      ],
      [
        { address: '2606:4700::1', family: 6 },
        { address: '10.0.0.5', family: 4 },
      ],
      [
        { address: '93.184.216.34', family: 4 },
        { address: '::ffff:169.254.169.254', family: 6 },
      ],
    ]) {
      const r = await resolveChecked('mixed.example', fixed(answers), DEFAULT_NETWORK_SETTINGS);
      assert.equal(r.kind, 'refused', JSON.stringify(answers));
    }
  });
  test('all public: the first answer is the one to connect to', async () => {
    const r = await resolveChecked(
      'ok.example',
      fixed([
        { address: '2606:4700::1', family: 6 },
        { address: '1.1.1.1', family: 4 },
      ]),
      DEFAULT_NETWORK_SETTINGS,
    );
    assert.deepEqual(r, { kind: 'ok', address: '2606:4700::1', family: 6, checked: ['2606:4700::1', '1.1.1.1'] });
  });
  test('garbage, empty and failing resolvers', async () => {
    assert.equal((await resolveChecked('x.example', fixed([{ address: 'evil', family: 4 }]), DEFAULT_NETWORK_SETTINGS)).kind, 'refused');
    assert.equal((await resolveChecked('x.example', fixed([]), DEFAULT_NETWORK_SETTINGS)).kind, 'error');
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND x.example'), { code: 'ENOTFOUND' });
    };
    const r = await resolveChecked('x.example', failing, DEFAULT_NETWORK_SETTINGS);
    assert.equal(r.kind, 'error');
  });
  test('IP literal URLs are checked without any DNS lookup', async () => {
    let lookups = 0;
    const counting: Resolver = async () => {
      lookups++;
      return [{ address: '1.1.1.1', family: 4 }];
    };
    for (const u of ['http://127.0.0.1/', 'http://[::ffff:7f00:1]/', 'http://0x7f.1/', 'http://169.254.169.254/']) {
      const r = await safeFetch(u, { resolver: counting });
      assert.equal(r.kind, 'refused', u);
    }
    assert.equal(lookups, 0);
  });
  test('a name resolving to loopback is refused before connecting', async () => {
    const r = await safeFetch('http://looks-public.example/', { resolver: fixed([{ address: '127.0.0.1', family: 4 }]) });
    assert.equal(r.kind, 'refused');
    assert.equal(r.kind === 'refused' && r.decision.rule, 'deny:ip-loopback');
  });
});
