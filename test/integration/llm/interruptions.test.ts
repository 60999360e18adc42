import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clientFor, collectEvents, rejectsWith, userAsks, withServer } from './helpers';
import { StreamInterruptedError, type ModelStreamEvent } from '../../../src/core/llm';

// Chunks of this reply: role, text "Let me", text " edit.", then two interleaved tool calls:
// [start A, start B, A1, B1, A2, B2, A3, B3], finish, usage. Cutting after 6 leaves both calls half-sent.
const twoCalls = {
  text: 'Let me edit.',
  textChunkSize: 6,
  toolCalls: [
    { name: 'propose_patch', arguments: { patch: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' } },
    { name: 'run_tests', arguments: { command: 'npm test' } },
  ],
};
const ask = { role: 'reasoning' as const, messages: userAsks('fix it') };

describe('streams that break after they started', () => {
  test('a cut mid tool call: the partial call is discarded and the step retried once from a clean state', async () => {
    await withServer([{ reply: twoCalls, faults: [{ kind: 'cut', afterChunks: 6 }] }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server).streamChatWithRecovery({ ...ask, onEvent });
      assert.equal(server.chatRequests.length, 2);
      assert.equal(turn.attempts, 2);
      assert.equal(turn.text, 'Let me edit.');
      assert.deepEqual(
        turn.toolCalls.map((c) => c.name),
        ['propose_patch', 'run_tests'],
      );
      assert.deepEqual(JSON.parse(turn.toolCalls[1]!.argumentsJson), { command: 'npm test' });
      const restartAt = events.findIndex((e) => e.type === 'restart');
      assert.ok(restartAt > 0);
      const restart = events[restartAt] as Extract<ModelStreamEvent, { type: 'restart' }>;
      assert.equal(restart.discardedText, 'Let me edit.');
      assert.match(restart.reason, /broke off/);
      assert.match(restart.reason, /2 partial tool call\(s\) discarded/);
      // After the restart the consumer sees the whole reply again, from the start.
      const after = events
        .slice(restartAt + 1)
        .filter((e) => e.type === 'text-delta')
        .map((e) => (e as { text: string }).text);
      assert.equal(after.join(''), 'Let me edit.');
    });
  });

  test('streamChat alone rejects with StreamInterruptedError carrying the partial text, no tool calls', async () => {
    await withServer([{ reply: twoCalls, faults: [{ kind: 'cut', afterChunks: 6 }] }], async (server) => {
      const err = await rejectsWith(clientFor(server).streamChat(ask));
      assert.ok(err instanceof StreamInterruptedError);
      assert.equal(err.kind, 'interrupted');
      assert.equal(err.reason, 'connection-lost');
      assert.equal(err.partialText, 'Let me edit.');
      assert.equal(err.discardedToolCalls, 2);
      assert.equal('toolCalls' in err, false);
      // Not retried by the transport layer: one request only.
      assert.equal(server.chatRequests.length, 1);
    });
  });

  test('a second cut rejects with kind "interrupted" after exactly two requests', async () => {
    const faults = [
      { kind: 'cut' as const, afterChunks: 6 },
      { kind: 'cut' as const, afterChunks: 4 },
    ];
    await withServer([{ reply: twoCalls, faults }], async (server) => {
      const { events, onEvent } = collectEvents();
      const err = await rejectsWith(clientFor(server).streamChatWithRecovery({ ...ask, onEvent }));
      assert.ok(err instanceof StreamInterruptedError);
      assert.equal(err.kind, 'interrupted');
      assert.equal(err.attempts, 2);
      assert.match(err.message, /broke off twice, the step is interrupted/);
      assert.equal(server.chatRequests.length, 2);
      assert.equal(events.filter((e) => e.type === 'restart').length, 1);
    });
  });

  test('retries and the recovery share one budget: never more than maxAttempts requests (no stacking)', async () => {
    const faults = [
      { kind: 'status' as const, status: 500 },
      { kind: 'status' as const, status: 502 },
      { kind: 'cut' as const, afterChunks: 6 },
      { kind: 'status' as const, status: 503 },
      { kind: 'status' as const, status: 503 },
    ];
    await withServer([{ reply: twoCalls, faults }], async (server) => {
      const { events, onEvent } = collectEvents();
      const err = await rejectsWith(clientFor(server, { maxAttempts: 4 }).streamChatWithRecovery({ ...ask, onEvent }));
      assert.equal(err.kind, 'server');
      assert.equal(err.attempts, 4);
      assert.equal(server.chatRequests.length, 4);
      const numbers = events.filter((e) => e.type === 'request-started').map((e) => (e as { attempt: number }).attempt);
      assert.deepEqual(numbers, [1, 2, 3, 4]);
    });
  });

  test('a break on the last allowed attempt still gets its one clean re-run', async () => {
    const faults = [
      { kind: 'status' as const, status: 500 },
      { kind: 'cut' as const, afterChunks: 6 },
    ];
    await withServer([{ reply: twoCalls, faults }], async (server) => {
      const turn = await clientFor(server, { maxAttempts: 2 }).streamChatWithRecovery(ask);
      assert.equal(turn.toolCalls.length, 2);
      assert.equal(turn.attempts, 3);
      assert.equal(server.chatRequests.length, 3);
    });
  });

  test('a stream that ends without finish_reason or [DONE] counts as interrupted', async () => {
    await withServer([{ reply: twoCalls, faults: [{ kind: 'end-early', afterChunks: 5 }] }], async (server) => {
      const err = await rejectsWith(clientFor(server).streamChat(ask));
      assert.ok(err instanceof StreamInterruptedError);
      assert.equal(err.reason, 'premature-end');
      assert.equal(err.discardedToolCalls, 2);
    });
  });

  test('a cut after finish_reason but before usage and [DONE] still yields the complete reply', async () => {
    // role, "Let me", " edit.", 8 tool-call chunks, finish (12th), usage: cut after the finish chunk.
    await withServer([{ reply: twoCalls, faults: [{ kind: 'cut', afterChunks: 12 }] }], async (server) => {
      const turn = await clientFor(server).streamChat(ask);
      assert.equal(turn.toolCalls.length, 2);
      assert.equal(turn.usage.estimated, true);
      assert.equal(server.chatRequests.length, 1);
    });
  });

  test('a reset before any byte is an ordinary retryable network fault, not an interruption', async () => {
    await withServer([{ reply: twoCalls, faults: [{ kind: 'cut', afterChunks: 1 }] }], async (server) => {
      // One chunk (the role marker) shows nothing to the user, so the retry layer may resend.
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server).streamChat({ ...ask, onEvent });
      assert.equal(turn.toolCalls.length, 2);
      assert.equal(events.filter((e) => e.type === 'restart').length, 0);
      assert.equal(events.filter((e) => e.type === 'retrying').length, 1);
    });
  });
});

describe('idle timeout between chunks', () => {
  const fastIdle = { idleTimeoutMs: 300, firstChunkTimeoutMs: 300 };

  test('a stall after output began: aborted after the idle time, then one clean retry', async () => {
    await withServer([{ reply: twoCalls, faults: [{ kind: 'stall', afterChunks: 5 }] }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server, fastIdle).streamChatWithRecovery({ ...ask, onEvent });
      assert.equal(turn.toolCalls.length, 2);
      assert.equal(server.chatRequests.length, 2);
      const restart = events.find((e) => e.type === 'restart') as Extract<ModelStreamEvent, { type: 'restart' }>;
      assert.match(restart.reason, /stalled: no data for 300 ms/);
    });
  });

  test('slow chunks beyond the idle limit after output began count as a stall', async () => {
    const faults = [{ kind: 'slow' as const, chunkDelayMs: 1_000, afterChunks: 3 }];
    await withServer([{ reply: twoCalls, faults }], async (server) => {
      const err = await rejectsWith(clientFor(server, fastIdle).streamChat(ask));
      assert.ok(err instanceof StreamInterruptedError);
      assert.equal(err.reason, 'idle-timeout');
      assert.equal(err.partialText, 'Let me edit.');
    });
  });

  test('slow from the first chunk on (nothing shown yet): a retryable timeout, then success', async () => {
    await withServer([{ reply: twoCalls, faults: [{ kind: 'slow', chunkDelayMs: 1_000 }] }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server, fastIdle).streamChat({ ...ask, onEvent });
      assert.equal(turn.attempts, 2);
      assert.equal((events.find((e) => e.type === 'retrying') as { kind: string }).kind, 'timeout');
    });
  });

  test('slow chunks within the idle limit are fine', async () => {
    await withServer([{ reply: { ...twoCalls, chunkDelayMs: 20 } }], async (server) => {
      const turn = await clientFor(server, fastIdle).streamChat(ask);
      assert.equal(turn.toolCalls.length, 2);
    });
  });

  test('a server that never answers: a retryable timeout, capped like other faults', async () => {
    const faults = [{ kind: 'hang' as const }, { kind: 'hang' as const }];
    await withServer([{ reply: twoCalls, faults }], async (server) => {
      const err = await rejectsWith(clientFor(server, { ...fastIdle, maxAttempts: 2 }).streamChat(ask));
      assert.equal(err.kind, 'timeout');
      assert.equal(err.retryable, true);
      assert.match(err.message, /no reply from http:\/\/127\.0\.0\.1:\d+\/v1 within 300 ms; gave up after 2 attempts/);
      assert.equal(server.chatRequests.length, 2);
    });
  });

  test('a hang then a reply: the timeout is retried and the step succeeds', async () => {
    await withServer([{ reply: twoCalls, faults: [{ kind: 'hang' }] }], async (server) => {
      const turn = await clientFor(server, fastIdle).streamChat(ask);
      assert.equal(turn.toolCalls.length, 2);
      assert.equal(turn.attempts, 2);
    });
  });
});
