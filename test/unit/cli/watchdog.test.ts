// The watchdog ends a process whose main thread is blocked, which no JS timer or signal handler can.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';

const WATCHDOG = path.resolve(__dirname, '../../../src/cli/node/watchdog.ts');

/** A child that arms a watchdog (short limits) and then does `then` (JS source). */
function child(then: string, limits = '{ wallClockGraceMs: 300, cancelGraceMs: 300, stallMs: 1500 }', wallClockMs = 60_000) {
  const src = `const { Watchdog } = require(${JSON.stringify(WATCHDOG)});
    const w = new Watchdog(${limits}); w.arm(${wallClockMs});
    process.on('SIGTERM', () => { w.cancelled(); });
    ${then}`;
  const p = spawn(process.execPath, ['--import', 'tsx', '-e', src], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const t = Date.now();
  return new Promise<{ signal: NodeJS.Signals | null; code: number | null; ms: number; stderr: string; pid: number }>((resolve) =>
    p.on('close', (code, signal) => resolve({ code, signal, ms: Date.now() - t, stderr, pid: p.pid! })),
  );
}

describe('watchdog', () => {
  test('a main thread blocked in a loop is killed after the stall limit', async () => {
    const r = await child(`setTimeout(() => { for (;;); }, 300);`);
    assert.equal(r.signal, 'SIGKILL');
    assert.match(r.stderr, /blocked the main thread[^]*watchdog ends the process/);
    assert.ok(r.ms < 20_000, `${r.ms} ms`); // a hang detector only: a loaded machine is slow to kill and reap
  });
  test('a run past its wall clock (the event loop alive but the run not ending) is killed', async () => {
    const r = await child(`setInterval(() => {}, 100);`, undefined, 500);
    assert.equal(r.signal, 'SIGKILL');
    assert.match(r.stderr, /past its wall clock/);
  });
  test('a cancelled run that does not end is killed', async () => {
    const r = await child(`setInterval(() => {}, 100); setTimeout(() => process.kill(process.pid, 'SIGTERM'), 300);`);
    assert.equal(r.signal, 'SIGKILL');
    assert.match(r.stderr, /cancelled and did not stop/);
  });
  test('a whole process stopped and resumed (a suspended laptop, a starved process) is not taken for a blocked main thread', async () => {
    const src = `const { Watchdog } = require(${JSON.stringify(WATCHDOG)});
      const w = new Watchdog({ wallClockGraceMs: 300, cancelGraceMs: 300, stallMs: 1500 }); w.arm(60_000);
      process.stderr.write('armed\\n');
      setInterval(() => {}, 100); setTimeout(() => process.exit(3), 2500);`;
    const p = spawn(process.execPath, ['--import', 'tsx', '-e', src], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const armed = new Promise<void>((resolve) =>
      p.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (stderr.includes('armed')) resolve();
      }),
    );
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => p.on('close', (code, signal) => resolve([code, signal])));
    await armed;
    // Both threads stop for twice the stall limit: the watchdog must notice its own gap, not blame the main thread.
    p.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, 3000));
    p.kill('SIGCONT');
    assert.deepEqual(await closed, [3, null], stderr);
  });
  test('a healthy process that disarms is left alone and exits normally', async () => {
    const r = await child(`setTimeout(() => { w.disarm(); setTimeout(() => process.exit(3), 2500); }, 200);`);
    assert.deepEqual([r.code, r.signal], [3, null]);
  });
});
