import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import { tempWorkspace } from './helpers';

const runner = new NodeTaskRunner();

/**
 * Whether the process we started still runs: a zombie is dead, and a pid reused by some other
 * program (pid_max can be small, and the suite spawns many processes) is not ours.
 */
function alive(pid: number, marker: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (/^\d+ \(.*\) Z/.test(stat)) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

async function waitDead(pid: number, marker: string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!alive(pid, marker)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('NodeTaskRunner', () => {
  test('exit code, interleaved stdout and stderr, cwd', async () => {
    const ws = tempWorkspace();
    try {
      const r = await runner.run({ command: 'echo out; echo err 1>&2; pwd; exit 3', cwd: ws.root });
      assert.equal(r.exitCode, 3);
      assert.equal(r.output, `out\nerr\n${ws.root}\n`);
      assert.equal(r.timedOut, false);
      assert.equal(r.cancelled, false);
    } finally {
      ws.cleanup();
    }
  });

  test('a timeout kills the whole process group, grandchildren included', async () => {
    const ws = tempWorkspace();
    try {
      // The grandchild writes its pid, then sleeps; a kill of the shell alone would leave it running.
      const r = await runner.run({ command: "sh -c 'echo $$ > grandchild.pid; sleep 30' & wait", cwd: ws.root, timeoutMs: 500 });
      assert.equal(r.timedOut, true);
      assert.equal(r.exitCode, null);
      const pid = Number(readFileSync(path.join(ws.root, 'grandchild.pid'), 'utf8'));
      assert.ok(await waitDead(pid, 'sleep'), 'grandchild still alive');
    } finally {
      ws.cleanup();
    }
  });

  test('cancel kills the tree and reports cancelled', async () => {
    const ws = tempWorkspace();
    try {
      const controller = new AbortController();
      const pending = runner.run({
        command: 'echo started; echo $$ > sh.pid; sleep 30',
        cwd: ws.root,
        signal: controller.signal,
        onOutput: () => controller.abort(),
      });
      const r = await pending;
      assert.equal(r.cancelled, true);
      assert.equal(r.exitCode, null);
      assert.match(r.output, /started/);
      if (existsSync(path.join(ws.root, 'sh.pid'))) assert.ok(await waitDead(Number(readFileSync(path.join(ws.root, 'sh.pid'), 'utf8')), 'sleep'));
    } finally {
      ws.cleanup();
    }
  });

  test('background leftovers do not hold the run open after the command exits', async () => {
    const ws = tempWorkspace();
    try {
      const r = await runner.run({ command: '(sleep 30 &) ; echo done', cwd: ws.root, timeoutMs: 20_000 });
      assert.equal(r.exitCode, 0);
      assert.equal(r.timedOut, false);
      assert.equal(r.output, 'done\n');
    } finally {
      ws.cleanup();
    }
  });

  test('huge output is kept whole: past the memory budget it spills to a temporary file (sandbox/cappedOutput.ts)', async () => {
    const ws = tempWorkspace();
    try {
      const r = await runner.run({
        command: `${JSON.stringify(process.execPath)} -e "console.log('FIRST'); for (let i = 0; i < 200000; i++) console.log('noise line ' + i); console.log('LAST')"`,
        cwd: ws.root,
        maxOutputBytes: 10_000,
      });
      assert.equal(r.exitCode, 0);
      assert.equal(r.truncated, false);
      assert.match(r.output, /^FIRST\n/);
      assert.match(r.output, /\nnoise line 100000\n/);
      assert.match(r.output, /LAST\n$/);
      assert.doesNotMatch(r.output, /bytes dropped/);
    } finally {
      ws.cleanup();
    }
  });
});
