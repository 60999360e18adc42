// Issue 30 end to end through the built CLI in auto mode: the project's ordinary development commands
// (inline node, a package script, a runner from node_modules/.bin through npx) run inside the
// sandbox; without it they ask, and since nobody can
// answer, the refusal's hint says why truly (no "--approve auto-edit" in a run already in auto).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSandbox } from '../../../src/core/sandbox';
import { createArena } from './attacks/arena';
import { CLI, call, finish, runAgent, turn } from './attacks/agent';

const sandbox = probeSandbox();
const COMMANDS = {
  node: 'node -e "console.log(6 * 7)"',
  npx: 'npx check-sum 20 22',
  script: 'npm run sum',
};
const FILES = {
  'node_modules/.bin/check-sum': '#!/usr/bin/env node\nconsole.log("sum", Number(process.argv[2]) + Number(process.argv[3]));\n',
};

function fakeBrokenBwrap(bin: string): NodeJS.ProcessEnv {
  writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
  chmodSync(path.join(bin, 'bwrap'), 0o755);
  return { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
}

async function run(env: NodeJS.ProcessEnv) {
  const arena = createArena({ files: FILES });
  chmodSync(path.join(arena.ws, 'node_modules/.bin/check-sum'), 0o755);
  const pkg = { name: 'victim', version: '1.0.0', scripts: { test: 'node test.js', sum: 'node -e "console.log(40 + 2)"' } };
  writeFileSync(path.join(arena.ws, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  try {
    return await runAgent(arena, [turn(...Object.entries(COMMANDS).map(([id, command]) => call(id, 'run_command', { command }))), finish()], {
      mode: 'auto',
      env,
    });
  } finally {
    arena.cleanup();
  }
}

describe('ordinary development commands in auto mode (built CLI)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  test('sandboxed: they run without asking', { skip: sandbox.available ? false : `bubblewrap unusable here: ${sandbox.message}` }, async () => {
    const r = await run({});
    assert.match(r.results.get('node') ?? '', /exit 0[^\n]*\n42/);
    assert.match(r.results.get('npx') ?? '', /exit 0[^\n]*\nsum 42/);
    assert.match(r.results.get('script') ?? '', /exit 0[^\n]*[\s\S]*\n42/);
  });

  test('not sandboxed: they ask, and the refusal says so without a mode hint', async () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'pp-fake-bwrap-'));
    try {
      const r = await run(fakeBrokenBwrap(bin));
      for (const id of Object.keys(COMMANDS)) {
        const out = r.results.get(id) ?? '';
        assert.match(out, /nobody could approve it/, id);
        assert.match(out, /Commands are not sandboxed on this machine \(bubblewrap is not usable\)/, id);
        assert.doesNotMatch(out, /--approve|auto-edit|edits/, id);
      }
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
