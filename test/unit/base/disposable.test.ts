// DisposableStore: disposes everything once, last added first, even when one throws; a store
// already disposed disposes what is added late instead of leaking it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable, DisposableStore, toDisposable, type IDisposable } from '../../../src/core/base/disposable';
import { Emitter } from '../../../src/core/base/event';

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

// Disposable: the base of a class that owns what it set up (VS Code's `_register`).
class Owner extends Disposable {
  readonly emitter = this._register(new Emitter<number>());
  adopt<T extends IDisposable>(item: T): T {
    return this._register(item);
  }
  get disposed(): boolean {
    return this.isDisposed;
  }
  registerSelf(): void {
    this._register(this);
  }
}

test('a Disposable disposes what it registered, last first, once', () => {
  const order: string[] = [];
  const owner = new Owner();
  owner.adopt(toDisposable(() => order.push('first')));
  owner.adopt(toDisposable(() => order.push('second')));
  const heard: number[] = [];
  owner.emitter.event((n) => heard.push(n));
  owner.emitter.fire(1);
  owner.dispose();
  owner.dispose();
  owner.emitter.fire(2);
  assert.deepEqual(order, ['second', 'first']);
  assert.deepEqual(heard, [1], 'the registered emitter has no listeners after dispose');
  assert.equal(owner.disposed, true);
});

test('a Disposable already disposed disposes a late registration at once', () => {
  const owner = new Owner();
  owner.dispose();
  let ran = 0;
  owner.adopt(toDisposable(() => ran++));
  assert.equal(ran, 1);
});

test('a Disposable refuses to register itself', () => {
  assert.throws(() => new Owner().registerSelf(), /cannot register itself/);
});

// Emitter: every listener hears, a removed one no longer does, a disposed emitter has none.
test('an Emitter fires to its listeners until they are disposed', () => {
  const emitter = new Emitter<string>();
  const a: string[] = [];
  const b: string[] = [];
  const subA = emitter.event((e) => a.push(e));
  emitter.event((e) => b.push(e));
  emitter.fire('one');
  subA.dispose();
  emitter.fire('two');
  emitter.dispose();
  emitter.fire('three');
  assert.deepEqual(a, ['one']);
  assert.deepEqual(b, ['one', 'two']);
});
