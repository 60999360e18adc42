import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { clientFor, rejectsWith, userAsks, withServer } from './helpers';
import { CancelledError } from '../../../src/core/base';
import { ModelApiError, type ModelStreamEvent } from '../../../src/core/llm';

// Long timeouts everywhere: if cancellation did not act at once, these tests would hit the
// per-test timeout instead of passing.
const slowLimits = { idleTimeoutMs: 60_000, firstChunkTimeoutMs: 60_000 };
const reply = { text: 'Applying the patch now.', toolCalls: [{ name: 'propose_patch', arguments: { patch: 'x' } }] };
const ask = { role: 'reasoning' as const, messages: userAsks('go') };

describe('cancellation', () => {
  test('during the request (server has not answered): aborted, kind cancelled, no retry', { timeout: 5_000 }, async () => {
    await withServer([{ reply, faults: [{ kind: 'hang' }] }], async (server) => {
      const cts = new AbortController();
      const pending = clientFor(server, slowLimits).streamChatWithRecovery({ ...ask, signal: cts.signal });
      while (server.chatRequests.length === 0) await sleep(5);
      cts.abort(new CancelledError());
      const err = await rejectsWith(pending);
      assert.ok(err instanceof ModelApiError);
      assert.equal(err.kind, 'cancelled');
      assert.equal(err.retryable, false);
      await sleep(100);
      assert.equal(server.chatRequests.length, 1);
    });
  });

  test('while streaming: the partial reply is dropped, kind cancelled (not interrupted), no restart', { timeout: 5_000 }, async () => {
    await withServer([{ reply, faults: [{ kind: 'stall', afterChunks: 4 }] }], async (server) => {
      const cts = new AbortController();
      const events: ModelStreamEvent[] = [];
      const pending = clientFor(server, slowLimits).streamChatWithRecovery({
        ...ask,
        signal: cts.signal,
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'text-delta') cts.abort(new CancelledError());
        },
      });
      const err = await rejectsWith(pending);
      assert.equal(err.kind, 'cancelled');
      assert.equal(events.filter((e) => e.type === 'restart').length, 0);
      // Nothing more is emitted once cancelled, even chunks already buffered.
      assert.equal(events.filter((e) => e.type === 'text-delta').length, 1);
      await sleep(100);
      assert.equal(server.chatRequests.length, 1);
    });
  });

  test('during the backoff sleep: returns at once and no further request reaches the server', { timeout: 5_000 }, async () => {
    await withServer([{ reply, faults: [{ kind: 'rate-limit', retryAfterSeconds: 30 }] }], async (server) => {
      const cts = new AbortController();
      let sawRetrying = false;
      const pending = clientFor(server, slowLimits).streamChat({
        ...ask,
        signal: cts.signal,
        onEvent: (e) => {
          if (e.type === 'retrying') {
            sawRetrying = true;
            setImmediate(() => cts.abort(new CancelledError()));
          }
        },
      });
      const err = await rejectsWith(pending);
      assert.equal(sawRetrying, true);
      assert.equal(err.kind, 'cancelled');
      await sleep(200);
      assert.equal(server.chatRequests.length, 1);
    });
  });

  test('an already cancelled token sends nothing', { timeout: 5_000 }, async () => {
    await withServer([{ reply }], async (server) => {
      const cts = new AbortController();
      cts.abort(new CancelledError());
      const err = await rejectsWith(clientFor(server).streamChat({ ...ask, signal: cts.signal }));
      assert.equal(err.kind, 'cancelled');
      assert.equal(server.chatRequests.length, 0);
    });
  });

  test('a plain AbortController works the same way', { timeout: 5_000 }, async () => {
    await withServer([{ reply, faults: [{ kind: 'hang' }] }], async (server) => {
      const ac = new AbortController();
      const pending = clientFor(server, slowLimits).complete({ prompt: 'summarize', signal: ac.signal });
      while (server.chatRequests.length === 0) await sleep(5);
      ac.abort();
      assert.equal((await rejectsWith(pending)).kind, 'cancelled');
    });
  });
});
