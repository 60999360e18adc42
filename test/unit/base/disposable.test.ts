// DisposableStore: disposes everything once, last added first, even when one throws; a store
// already disposed disposes what is added late instead of leaking it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DisposableStore, toDisposable } from '../../../src/core/base/disposable';

test('disposes every item once, in reverse order', () => {
  const order: number[] = [];
  const store = new DisposableStore();
  for (const n of [1, 2, 3]) store.add(toDisposable(() => order.push(n)));
  store.dispose();
  store.dispose();
  assert.deepEqual(order, [3, 2, 1]);
  assert.equal(store.isDisposed, true);
});

test('an item that throws does not stop the others; the first error is rethrown', () => {
  const ran: string[] = [];
  const store = new DisposableStore();
  store.add(toDisposable(() => ran.push('a')));
  store.add(
    toDisposable(() => {
      throw new Error('b failed');
    }),
  );
  store.add(
    toDisposable(() => {
      throw new Error('c failed');
    }),
  );
  assert.throws(() => store.dispose(), /c failed/);
  assert.deepEqual(ran, ['a']);
});

test('adding to a disposed store disposes the item at once', () => {
  const store = new DisposableStore();
  store.dispose();
  let disposed = 0;
  const item = store.add(toDisposable(() => disposed++));
  assert.equal(disposed, 1);
  item.dispose();
  assert.equal(disposed, 1, 'toDisposable runs once');
});
