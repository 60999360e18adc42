import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RunOnSaveScheduler, runOnSaveMatcher, type Timers } from '../../../src/host/vscode/tests/runOnSaveLogic';

/** A fake clock: timers fire only when the test advances time. */
class FakeTimers implements Timers {
  now = 0;
  private next = 1;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= this.now) {
        this.pending.delete(id);
        t.fn();
      }
    }
  }
}

const tick = () => new Promise((r) => setImmediate(r));

describe('run on save', () => {
  test('the setting: off, on, or a glob', () => {
    assert.equal(runOnSaveMatcher('off')('src/a.ts'), false);
    assert.equal(runOnSaveMatcher('on')('src/a.ts'), true);
    assert.equal(runOnSaveMatcher('on')('.git/config'), false);
    const glob = runOnSaveMatcher('src/**/*.ts');
    assert.equal(glob('src/x/a.ts'), true);
    assert.equal(glob('docs/a.md'), false);
  });

  test('saves within the delay make one run with every saved path', async () => {
    const timers = new FakeTimers();
    const runs: string[][] = [];
    const s = new RunOnSaveScheduler<number>({ delayMs: 500, timers, matches: (p) => p.endsWith('.ts'), run: async (_sig, paths) => (runs.push(paths), 0) });
    const results: number[] = [];
    s.onDidRun((r) => results.push(r.result));
    assert.equal(s.onSave('a.ts'), true);
    timers.advance(300);
    assert.equal(s.onSave('README.md'), false);
    s.onSave('b.ts');
    timers.advance(300);
    assert.deepEqual(runs, []);
    timers.advance(200);
    await tick();
    assert.deepEqual(runs, [['a.ts', 'b.ts']]);
    assert.deepEqual(results, [0]);
    assert.equal(s.busy, false);
  });

  test('a newer save cancels the run in flight; only the newer result is reported', async () => {
    const timers = new FakeTimers();
    const signals: AbortSignal[] = [];
    const finishers: ((n: number) => void)[] = [];
    const s = new RunOnSaveScheduler<number>({
      delayMs: 100,
      timers,
      matches: () => true,
      run: (signal) => {
        signals.push(signal);
        return new Promise<number>((resolve) => finishers.push(resolve));
      },
    });
    const results: number[] = [];
    s.onDidRun((r) => results.push(r.result));
    s.onSave('a.ts');
    timers.advance(100);
    assert.equal(signals.length, 1);
    s.onSave('a.ts');
    assert.equal(signals[0]!.aborted, true);
    finishers[0]!(1);
    await tick();
    assert.deepEqual(results, []);
    timers.advance(100);
    assert.equal(signals.length, 2);
    finishers[1]!(2);
    await tick();
    assert.deepEqual(results, [2]);
    s.dispose();
  });

  test('the files of a cancelled run are tested by the run that replaces it', async () => {
    const timers = new FakeTimers();
    const runs: string[][] = [];
    const s = new RunOnSaveScheduler<number>({
      delayMs: 100,
      timers,
      matches: () => true,
      run: (_signal, paths) => (runs.push(paths), new Promise<number>(() => undefined)),
    });
    s.onSave('a.md');
    timers.advance(100);
    s.onSave('b.md');
    timers.advance(100);
    assert.deepEqual(runs, [['a.md'], ['a.md', 'b.md']]);
    s.dispose();
  });
});
