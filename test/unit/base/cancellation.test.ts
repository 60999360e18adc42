// CancellationTokenSource behaves like VS Code's: parents cancel children, a disposed child stops
// listening to its parent, and a listener added after cancellation still hears about it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { CancellationToken, CancellationTokenSource, CancelledError } from '../../../src/core/base/cancellation';
import { Emitter } from '../../../src/core/base/event';

describe('CancellationTokenSource', () => {
  test('cancel fires the listeners once, aborts the signal with CancelledError, and is idempotent', () => {
    const cts = new CancellationTokenSource();
    let fired = 0;
    cts.token.onCancellationRequested(() => fired++);
    cts.cancel();
    cts.cancel();
    assert.equal(fired, 1);
    assert.equal(cts.token.isCancellationRequested, true);
    assert.ok(cts.token.signal.reason instanceof CancelledError);
  });

  test('a listener added after cancellation is called once, on a later tick; disposing it first prevents the call', async () => {
    const cts = new CancellationTokenSource();
    cts.cancel();
    let late = 0;
    let disposedLate = 0;
    cts.token.onCancellationRequested(() => late++);
    cts.token.onCancellationRequested(() => disposedLate++).dispose();
    assert.equal(late, 0, 'not synchronously, like VS Code');
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(late, 1);
    assert.equal(disposedLate, 0);
  });

  test('a disposed listener is not called', () => {
    const cts = new CancellationTokenSource();
    let fired = 0;
    cts.token.onCancellationRequested(() => fired++).dispose();
    cts.cancel();
    assert.equal(fired, 0);
  });

  test('a child is cancelled with its parent, at once when the parent already is', async () => {
    const parent = new CancellationTokenSource();
    const child = new CancellationTokenSource(parent.token);
    parent.cancel();
    assert.equal(child.token.isCancellationRequested, true);
    const late = new CancellationTokenSource(parent.token);
    assert.equal(late.token.isCancellationRequested, true, 'synchronously, not a tick later');
    await tick();
  });

  test('disposing a child removes its listener from the parent (no leak, no late cancel)', () => {
    // A parent that counts its listeners: the shape of any Event<void>.
    const emitter = new Emitter<void>();
    let live = 0;
    const parent: CancellationToken = {
      isCancellationRequested: false,
      signal: new AbortController().signal,
      onCancellationRequested: (listener) => {
        live++;
        const d = emitter.event(listener);
        return { dispose: () => (live--, d.dispose()) };
      },
    };
    const children = Array.from({ length: 100 }, () => new CancellationTokenSource(parent));
    assert.equal(live, 100);
    for (const c of children) c.dispose();
    assert.equal(live, 0);
    emitter.fire();
    assert.ok(children.every((c) => !c.token.isCancellationRequested), 'a disposed child no longer follows its parent');
  });

  test('dispose(true) cancels first; CancellationToken.None never cancels and keeps no listener', async () => {
    const cts = new CancellationTokenSource();
    let fired = 0;
    cts.token.onCancellationRequested(() => fired++);
    cts.dispose(true);
    assert.equal(fired, 1);
    assert.equal(CancellationToken.None.isCancellationRequested, false);
    let none = 0;
    CancellationToken.None.onCancellationRequested(() => none++).dispose();
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(none, 0);
  });
});
