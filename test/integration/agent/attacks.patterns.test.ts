// End to end: model-chosen patterns that backtrack catastrophically, through the built CLI.
// The glob tool answers at once; grep without ripgrep (hidden from PATH) stops the regex with a
// clear error; a short wall clock ends the run on time; SIGTERM during a run ends the process.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { createArena, type Arena } from './attacks/arena';
import { CLI, call, cliEnv, finish, runAgent, turn } from './attacks/agent';
import { ScriptedModelServer } from '../../support/scriptedModel/server';

const CATASTROPHIC_REGEX = '^(a+)+$';
const longName = `${'a'.repeat(120)}.txt`;

/** A PATH with git and a shell but no ripgrep, so grep takes its JS fallback. */
function pathWithoutRipgrep(arena: Arena): string {
  const bin = path.join(arena.base, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const tool of ['git', 'sh', 'bash', 'env']) {
    for (const dir of ['/usr/bin', '/bin']) {
      const p = path.join(dir, tool);
      if (existsSync(p) && !existsSync(path.join(bin, tool))) symlinkSync(p, path.join(bin, tool));
    }
  }
  return bin;
}

function arenaWithBait(settings: Record<string, unknown> = {}): Arena {
  return createArena({ settings, files: { [longName]: `${'a'.repeat(60)}!\n`, 'src/a.ts': 'export const a = 1;\n' } });
}

describe('attacks: catastrophic patterns (built CLI)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  test('a backtracking glob and a backtracking regex (JS fallback) come back promptly', async () => {
    const arena = arenaWithBait();
    try {
      const t = Date.now();
      const run = await runAgent(
        arena,
        [
          turn(call('glob', 'glob', { pattern: '*a*a*a*a*a*a*a*a*a*a*a*b' }), call('braces', 'glob', { pattern: `${'{a,*a,'.repeat(40)}b${'}'.repeat(40)}` })),
          turn(call('grep', 'grep', { pattern: CATASTROPHIC_REGEX })),
          finish(),
        ],
        { env: { PATH: pathWithoutRipgrep(arena) } },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.results.get('glob')!, /no files match/);
      assert.match(run.results.get('braces')!, /no files match/);
      assert.match(run.results.get('grep')!, /ran longer than 10 s and was stopped[^]*simplify it/);
      assert.ok(Date.now() - t < 90_000, `took ${Date.now() - t} ms`); // a hang, not a slow machine
    } finally {
      arena.cleanup();
    }
  });

  test('a run with a short wall clock ends on time while a backtracking regex runs', async () => {
    const arena = arenaWithBait({ 'patchpilot.limits.wallClockMinutes': 0.05 });
    try {
      const t = Date.now();
      const run = await runAgent(arena, [turn(call('grep', 'grep', { pattern: CATASTROPHIC_REGEX })), finish()], { env: { PATH: pathWithoutRipgrep(arena) } });
      const ms = Date.now() - t;
      assert.equal(run.code, 6, run.stderr); // stopped by a limit
      assert.match(run.stdout, /wall-clock limit/);
      // The limit, not the regex's 10 s cap or a hang, ended it (the message above); the bound only
      // tells a hang from a slow machine (two CLI processes on a loaded CI box).
      assert.ok(ms < 60_000, `ended after ${ms} ms (wall clock 3 s)`);
    } finally {
      arena.cleanup();
    }
  });

  test('SIGTERM during a run ends the process within a few seconds (exit 130)', async () => {
    const arena = arenaWithBait();
    const server = await ScriptedModelServer.start([turn(call('grep', 'grep', { pattern: CATASTROPHIC_REGEX })), finish()]);
    try {
      const env = cliEnv(arena, { PATH: pathWithoutRipgrep(arena) });
      const child = spawn(
        process.execPath,
        [CLI, 'run', '--goal', 'tidy up', '--workspace', arena.ws, '--approve', 'auto', '--json', '--base-url', server.baseUrl, '--model', 'scripted-model'],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
      // Wait until the grep call has started, then send SIGTERM.
      for (let i = 0; i < 100 && !/"grep"/.test(stdout); i++) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1000));
      const sent = Date.now();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const [code, signal] = await closed;
      clearTimeout(killer);
      const ms = Date.now() - sent;
      assert.deepEqual([code, signal], [130, null], `exit ${code} ${signal}`);
      assert.ok(ms < 20_000, `ended ${ms} ms after SIGTERM`); // not hung (a loaded machine is slow, not stuck)
    } finally {
      await server.close();
      arena.cleanup();
    }
  });
});
