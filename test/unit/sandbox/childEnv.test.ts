import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildChildEnv } from '../../../src/core/sandbox/childEnv';

/** Issue 7: what a child process may see of PatchPilot's environment. */
const BASE: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  LANG: 'C.UTF-8',
  LC_ALL: 'C',
  TERM: 'xterm',
  JAVA_HOME: '/opt/jdk',
  VIRTUAL_ENV: '/w/.venv',
  https_proxy: 'http://proxy:3128',
  HTTP_PROXY: 'http://bob:hunter2@proxy:3128',
  DATABASE_URL: 'postgres://u:SECRETPW@h/db',
  REDIS_URL: 'redis://cache:6379',
  PATCHPILOT_API_KEY: 'pp-key-0123456789',
  OPENAI_API_KEY: 'sk-abcdefghijklmnopqrstuvwxyz',
  GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
  SSH_AUTH_SOCK: '/run/user/1000/ssh',
  NODE_OPTIONS: '--require /tmp/x.js',
  NODE_TEST_CONTEXT: 'child-v8',
  LD_PRELOAD: '/tmp/x.so',
  MY_CONFIG: 'plain',
  TZ: 'sk-abcdefghijklmnopqrstuvwxyz', // an allowed name holding a known token shape
  COLUMNS: 'pp-key-0123456789', // an allowed name holding a copy of a secret-named variable
  LINES: '-----BEGIN OPENSSH PRIVATE KEY-----',
};

type Row = [name: string, passes: boolean, why: string];
const ROWS: Row[] = [
  ['PATH', true, 'finding programs'],
  ['HOME', true, 'identity'],
  ['LANG', true, 'locale'],
  ['LC_ALL', true, 'locale category'],
  ['TERM', true, 'terminal'],
  ['JAVA_HOME', true, 'toolchain location'],
  ['VIRTUAL_ENV', true, 'toolchain location'],
  ['https_proxy', true, 'proxy without credentials'],
  ['HTTP_PROXY', false, 'proxy URL with user:password@'],
  ['DATABASE_URL', false, 'not on the allowlist (and carries a password)'],
  ['REDIS_URL', false, 'not on the allowlist'],
  ['PATCHPILOT_API_KEY', false, 'secret name'],
  ['OPENAI_API_KEY', false, 'secret name'],
  ['GITHUB_TOKEN', false, 'secret name'],
  ['SSH_AUTH_SOCK', false, 'agent socket'],
  ['NODE_OPTIONS', false, 'changes what node runs'],
  ['NODE_TEST_CONTEXT', false, 'would make a child node --test report to us'],
  ['LD_PRELOAD', false, 'loads code'],
  ['MY_CONFIG', false, 'not on the allowlist'],
  ['TZ', false, 'allowed name, value shaped like a token'],
  ['COLUMNS', false, 'allowed name, value copied from a secret variable'],
  ['LINES', false, 'allowed name, value is a private key'],
];

describe('buildChildEnv: allowlisted names, credential values dropped', () => {
  const { env, removed } = buildChildEnv({ base: BASE });
  for (const [name, passes, why] of ROWS) {
    test(`${passes ? 'passes' : 'dropped'} ${name} (${why})`, () => {
      assert.equal(name in env, passes);
      assert.equal(removed.includes(name), !passes);
    });
  }
  test('no value of the result contains a secret of the base', () => {
    const all = Object.values(env).join('\n');
    for (const s of ['SECRETPW', 'pp-key-0123456789', 'sk-abcdefghij', 'hunter2', 'PRIVATE KEY']) assert.ok(!all.includes(s), s);
  });
});

describe('buildChildEnv: the user setting and the caller', () => {
  test('envAllow adds names, but never a secret-looking name or a credential value', () => {
    const { env } = buildChildEnv({ base: BASE, allow: ['MY_CONFIG', 'DATABASE_URL', 'GITHUB_TOKEN', 'REDIS_URL'] });
    assert.equal(env.MY_CONFIG, 'plain');
    assert.equal(env.REDIS_URL, 'redis://cache:6379');
    assert.equal(env.DATABASE_URL, undefined);
    assert.equal(env.GITHUB_TOKEN, undefined);
  });
  test('variables the caller sets are added unfiltered and win', () => {
    const { env } = buildChildEnv({ base: BASE, set: { CI: '1', TERM: 'dumb' } });
    assert.equal(env.CI, '1');
    assert.equal(env.TERM, 'dumb');
  });
  test('defaults to process.env', () => {
    assert.equal(buildChildEnv().env.PATH, process.env.PATH);
  });
});
