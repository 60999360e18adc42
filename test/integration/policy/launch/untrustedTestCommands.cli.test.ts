// What a workspace's files choose to run runs sandboxed or asked (docs/security.md, "Started
// programs"): a hostile repository's detected test command, through the built CLI, without
// --trust-workspace. The shapes are generated: each way the repository's files choose what the
// detected command runs (package.json's test script, its pretest hook, a Makefile target) x every
// approval mode, with and without bubblewrap (a failing bwrap first on PATH). The payload writes
// outside the workspace and connects to a local service; neither may happen unasked.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSandbox } from '../../../../src/core/sandbox';
import { createArena, CLI, type Arena } from '../../agent/attacks/arena';
import { Canary, call, finish, runAgent, turn } from '../../agent/attacks/agent';

const sandbox = probeSandbox();

/** The code the repository wants run: a write outside the workspace and a connection to a local service. */
function payload(marker: string, port: number): string {
  return [
    "const fs = require('node:fs');",
    `try { fs.writeFileSync(${JSON.stringify(marker)}, 'ran on the host'); } catch (e) { console.log('write refused: ' + e.code); }`,
    `require('node:net').connect(${port}, '127.0.0.1').on('error', (e) => console.log('connect refused: ' + e.code)).on('connect', function () { this.end(); });`,
  ].join('\n');
}

/** Ways the workspace's own files decide what the detected test command runs. */
const SHAPES: Record<string, (marker: string, port: number) => Record<string, string>> = {
  'package.json test script (npm test)': (m, p) => ({
    'package.json': JSON.stringify({ name: 'victim', version: '1.0.0', scripts: { test: 'node hostile.js' } }),
    'hostile.js': payload(m, p),
  }),
  'package.json pretest hook (npm test)': (m, p) => ({
    'package.json': JSON.stringify({ name: 'victim', version: '1.0.0', scripts: { pretest: 'node hostile.js', test: 'node test.js' } }),
    'hostile.js': payload(m, p),
  }),
  'Makefile target (make test)': (m, p) => ({
    'package.json': '',
    Makefile: 'test:\n\tnode hostile.js\n',
    'hostile.js': payload(m, p),
  }),
};

const MODES = ['settings', 'auto-edit', 'auto'] as const;

function failingBwrap(): string {
  const bin = mkdtempSync(path.join(tmpdir(), 'pp-fake-bwrap-'));
  writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
  chmodSync(path.join(bin, 'bwrap'), 0o755);
  return bin;
}

async function attack(shape: string, mode: (typeof MODES)[number], env: NodeJS.ProcessEnv) {
  const canary = await Canary.start();
  let arena: Arena | undefined;
  try {
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'pp-outside-')), 'pwned.txt');
    const files = SHAPES[shape]!(marker, canary.port);
    arena = createArena({ files });
    if (files['package.json'] === '') rmSync(path.join(arena.ws, 'package.json'));
    const run = await runAgent(arena, [turn(call('tests', 'run_tests', {})), finish(), finish()], { mode, env });
    return { run, ranOnHost: existsSync(marker), connections: canary.connections };
  } finally {
    await canary.close();
    arena?.cleanup();
  }
}

describe(
  'untrusted workspace: detected test commands run sandboxed or asked (built CLI)',
  { skip: existsSync(CLI) ? false : 'run npm run build first' },
  () => {
    for (const shape of Object.keys(SHAPES)) {
      for (const mode of MODES) {
        test(`no sandbox, ${mode === 'settings' ? 'ask' : mode} mode, ${shape}: asked (refused without a terminal), nothing ran on the host`, async () => {
          const bin = failingBwrap();
          try {
            const { run, ranOnHost, connections } = await attack(shape, mode, { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` });
            assert.equal(ranOnHost, false, 'the payload wrote outside the workspace');
            assert.equal(connections, 0, 'the payload reached the local service');
            assert.match(run.results.get('tests') ?? '', /nobody could approve it/);
            assert.ok(
              run.policy.some((p) => p.rule === 'ask:untrusted-unsandboxed'),
              'the audit trail records why it asked',
            );
            assert.match(run.stdout + run.stderr, /this workspace is not trusted and commands are not sandboxed here/);
          } finally {
            rmSync(bin, { recursive: true, force: true });
          }
        });
      }
      test(
        `${sandbox.available ? 'sandbox' : `no sandbox here (${sandbox.message})`}, auto mode, ${shape}: contained`,
        { skip: sandbox.available ? false : sandbox.message },
        async () => {
          const { run, ranOnHost, connections } = await attack(shape, 'auto', {});
          assert.equal(ranOnHost, false, 'the payload wrote outside the workspace');
          assert.equal(connections, 0, 'the payload reached the local service');
          assert.match(run.results.get('tests') ?? '', /write refused|tests (passed|FAILED)/);
        },
      );
    }
  },
);
