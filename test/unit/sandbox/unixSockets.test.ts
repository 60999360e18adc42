import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { boundSocketPaths, unixSocketRules } from '../../../src/core/sandbox/unixSockets';

/** The unix-socket part of the sandbox layout: the filter by default, masks when it is lifted (real sockets, a written /proc/net/unix). */
const linux = process.platform === 'linux' ? false : 'unix sockets as Linux lists them';
let dir: string;
let table: string;
const servers: net.Server[] = [];
const sock = (name: string) => path.join(dir, name);

before(async () => {
  dir = realpathSync(mkdtempSync(path.join('/var/tmp', 'pp-unixsockets-')));
  for (const name of ['a.sock', 'with space.sock', 'allowed.sock']) {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(sock(name), r));
    servers.push(s);
  }
  writeFileSync(sock('not-a-socket'), '');
  table = path.join(dir, 'unix');
  writeFileSync(
    table,
    [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      `0000000000000000: 00000002 00000000 00010000 0001 01 11 ${sock('a.sock')}`,
      `0000000000000000: 00000002 00000000 00010000 0001 01 12 ${sock('with space.sock')}`,
      `0000000000000000: 00000002 00000000 00010000 0001 01 13 ${sock('allowed.sock')}`,
      '0000000000000000: 00000002 00000000 00010000 0001 01 14 @/tmp/.X11-unix/X0',
      '0000000000000000: 00000002 00000000 00010000 0001 01 15 /run/user/1000/bus',
      `0000000000000000: 00000002 00000000 00010000 0001 01 16 ${sock('gone.sock')}`,
      `0000000000000000: 00000002 00000000 00010000 0001 01 17 ${sock('not-a-socket')}`,
      '0000000000000000: 00000003 00000000 00000000 0001 03 18',
      '',
    ].join('\n'),
  );
});

after(async () => {
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('unix sockets in the sandbox layout', { skip: linux }, () => {
  test('no allowlist and a working filter: the seccomp program, no masks', () => {
    const r = unixSocketRules({ filterWorks: true, allow: [], procNetUnix: table });
    assert.ok(r.seccomp && r.seccomp.length > 0 && r.seccomp.length % 8 === 0);
    assert.deepEqual(r.mounts, []);
  });

  test('an allowlist lifts the filter: the allowed socket bound back, every other listed socket masked, abstract and replaced folders skipped', () => {
    const r = unixSocketRules({ filterWorks: true, allow: [sock('allowed.sock')], procNetUnix: table });
    assert.equal(r.seccomp, undefined);
    assert.deepEqual(r.mounts, [
      '--bind',
      sock('allowed.sock'),
      sock('allowed.sock'),
      '--ro-bind',
      '/dev/null',
      sock('a.sock'),
      '--ro-bind',
      '/dev/null',
      sock('with space.sock'),
    ]);
  });

  test('no filter (unknown architecture, refused by bwrap): the known sockets are masked all the same', () => {
    const r = unixSocketRules({ filterWorks: false, allow: [], procNetUnix: table });
    assert.equal(r.seccomp, undefined);
    assert.deepEqual(
      r.mounts.filter((a) => a.startsWith('/') && a !== '/dev/null'),
      [sock('a.sock'), sock('with space.sock'), sock('allowed.sock')],
    );
  });

  test('the listing: paths with spaces kept, abstract names and unbound sockets skipped; no file, no list', () => {
    const paths = boundSocketPaths(table);
    assert.ok(paths.includes(sock('with space.sock')));
    assert.ok(!paths.some((p) => p.startsWith('@')));
    assert.deepEqual(boundSocketPaths(path.join(dir, 'missing')), []);
  });
});
