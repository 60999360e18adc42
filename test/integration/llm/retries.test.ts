import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientFor, collectEvents, rejectsWith, userAsks, withServer } from './helpers';
import type { ScriptedFault } from '../../support/scriptedModel';
import { ModelApiError, ModelClient } from '../../../src/core/llm';

const ok = { text: 'recovered' };
const ask = { role: 'reasoning' as const, messages: userAsks('go') };

describe('the single retry layer', () => {
  test('429 with Retry-After: 1 waits at least one second before the next request', async () => {
    await withServer([{ reply: ok, faults: [{ kind: 'rate-limit', retryAfterSeconds: 1 }] }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server).streamChat({ ...ask, onEvent });
      assert.equal(turn.text, 'recovered');
      assert.equal(turn.attempts, 2);
      const [first, second] = server.chatRequests;
      assert.ok(second!.receivedAt - first!.receivedAt >= 1000, `waited only ${second!.receivedAt - first!.receivedAt} ms`);
      const retrying = events.find((e) => e.type === 'retrying') as Extract<(typeof events)[number], { type: 'retrying' }>;
      assert.equal(retrying.kind, 'rate-limit');
      assert.ok(retrying.delayMs >= 1000);
      assert.equal(retrying.attempt, 2);
    });
  });

  test('500 then success', async () => {
    await withServer([{ reply: ok, faults: [{ kind: 'status', status: 500 }] }], async (server) => {
      const turn = await clientFor(server).streamChat(ask);
      assert.equal(turn.text, 'recovered');
      assert.equal(server.attemptsForTurn(0), 2);
    });
  });

  test('502 and 503 then success', async () => {
    const faults: ScriptedFault[] = [
      { kind: 'status', status: 502 },
      { kind: 'status', status: 503 },
    ];
    await withServer([{ reply: ok, faults }], async (server) => {
      assert.equal((await clientFor(server).streamChat(ask)).attempts, 3);
    });
  });

  test('a connection reset before the reply, then success', async () => {
    await withServer([{ reply: ok, faults: [{ kind: 'reset' }] }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server).streamChat({ ...ask, onEvent });
      assert.equal(turn.text, 'recovered');
      assert.equal(server.attemptsForTurn(0), 2);
      assert.equal((events.find((e) => e.type === 'retrying') as { kind: string }).kind, 'network');
    });
  });

  test('attempts are capped: exactly maxAttempts requests reach the server, never more', async () => {
    const faults: ScriptedFault[] = Array.from({ length: 10 }, () => ({ kind: 'status', status: 500 }));
    await withServer([{ reply: ok, faults }], async (server) => {
      const err = await rejectsWith(clientFor(server, { maxAttempts: 3 }).streamChat(ask));
      assert.ok(err instanceof ModelApiError);
      assert.equal(err.kind, 'server');
      assert.equal(err.attempts, 3);
      assert.match(err.message, /gave up after 3 attempts/);
      assert.equal(server.chatRequests.length, 3);
      assert.deepEqual(
        server.chatRequests.map((r) => r.headers['x-stainless-retry-count']),
        ['0', '0', '0'],
      );
    });
  });

  test('the default cap is 4 attempts', async () => {
    const faults: ScriptedFault[] = Array.from({ length: 10 }, () => ({ kind: 'reset' }));
    await withServer([{ reply: ok, faults }], async (server) => {
      const err = await rejectsWith(clientFor(server).streamChat(ask));
      assert.equal(err.kind, 'network');
      assert.equal(server.chatRequests.length, 4);
    });
  });

  // A reasoning model may think for minutes before its first token: an attempt that waited out the
  // first-reply timeout spent none of the retry budget, which runs from the first failure.
  test('a first attempt slower than the whole retry budget (the first-reply timeout) is still retried', async () => {
    await withServer([{ reply: ok, faults: [{ kind: 'hang' }] }], async (server) => {
      const { events, onEvent } = collectEvents();
      const turn = await clientFor(server, { firstChunkTimeoutMs: 600, maxRetryTimeMs: 300 }).streamChat({ ...ask, onEvent });
      assert.equal(turn.text, 'recovered');
      assert.equal(server.chatRequests.length, 2);
      assert.ok(events.some((e) => e.type === 'retrying'));
    });
  });

  test('a Retry-After beyond the retry budget fails at once with the reason', async () => {
    await withServer([{ reply: ok, faults: [{ kind: 'rate-limit', retryAfterSeconds: 3600 }] }], async (server) => {
      const err = await rejectsWith(clientFor(server).streamChat(ask));
      assert.equal(err.kind, 'rate-limit');
      assert.match(err.message, /asked to wait 3600 s/);
      assert.match(err.message, /retry budget/);
      assert.equal(server.chatRequests.length, 1);
    });
  });

  test('connection refused is reported once (unreachable, naming the base URL), never retried', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const { events, onEvent } = collectEvents();
    const err = await rejectsWith(clientFor({ baseUrl: `http://127.0.0.1:${port}/v1` }, { maxAttempts: 4 }).streamChat({ ...ask, onEvent }));
    assert.equal(err.kind, 'unreachable');
    assert.equal(err.attempts, 1);
    assert.match(err.message, new RegExp(`could not reach http://127.0.0.1:${port}/v1`));
    assert.match(err.message, /ECONNREFUSED/);
    assert.equal(events.filter((e) => e.type === 'request-started').length, 1);
    assert.equal(events.filter((e) => e.type === 'retrying').length, 0);
  });

  test('a 5xx waits with real backoff by default: three retries take seconds, not milliseconds', async () => {
    const turns = [
      {
        reply: { text: 'ok' },
        faults: [
          { kind: 'status' as const, status: 503 },
          { kind: 'status' as const, status: 500 },
          { kind: 'status' as const, status: 502 },
        ],
      },
    ];
    await withServer(turns, async (server) => {
      const { events, onEvent } = collectEvents();
      const client = new ModelClient({ baseUrl: server.baseUrl, model: 'scripted-model' }, { random: () => 0 });
      const started = Date.now();
      const turn = await client.streamChat({ ...ask, onEvent });
      assert.equal(turn.text, 'ok');
      const waits = events.flatMap((e) => (e.type === 'retrying' ? [e.delayMs] : []));
      assert.deepEqual(waits, [500, 1000, 2000]);
      assert.ok(Date.now() - started >= 3400, `took ${Date.now() - started} ms`);
    });
  });
});

describe('errors that must not be retried: exactly one request', () => {
  const cases: { name: string; fault: ScriptedFault; kind: string; hint: RegExp }[] = [
    {
      name: '400 with a body',
      fault: { kind: 'status', status: 400, body: { error: { message: "Invalid schema for function 'grep'", type: 'invalid_request_error' } } },
      kind: 'bad-request',
      hint: /Invalid schema for function 'grep'/,
    },
    {
      name: '401',
      fault: { kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided' } } },
      kind: 'auth',
      hint: /401 from http:\/\/127\.0\.0\.1:\d+\/v1: no API key was sent and the server wants one: configure an API key/,
    },
    {
      name: '403',
      fault: { kind: 'status', status: 403, body: { error: { message: 'not allowed' } } },
      kind: 'auth',
      hint: /no API key was sent and the server wants one/,
    },
    { name: 'quota 429 (insufficient_quota)', fault: { kind: 'quota' }, kind: 'quota', hint: /out of quota or credit/ },
    {
      name: '422',
      fault: { kind: 'status', status: 422, body: { error: { message: 'unprocessable' } } },
      kind: 'bad-request',
      hint: /unprocessable/,
    },
    {
      name: '400 context_length_exceeded',
      fault: {
        kind: 'status',
        status: 400,
        body: { error: { message: "This model's maximum context length is 128000 tokens.", code: 'context_length_exceeded' } },
      },
      kind: 'context-overflow',
      hint: /longer than model "scripted-model" accepts/,
    },
    {
      name: '400 with a plain-text body',
      fault: { kind: 'status', status: 400, body: 'bad things' },
      kind: 'bad-request',
      hint: /bad things/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      await withServer([{ reply: ok, faults: [c.fault] }], async (server) => {
        const { events, onEvent } = collectEvents();
        const err = await rejectsWith(clientFor(server).streamChat({ ...ask, onEvent }));
        assert.ok(err instanceof ModelApiError, String(err));
        assert.equal(err.kind, c.kind);
        assert.equal(err.retryable, false);
        assert.match(err.message, c.hint);
        assert.equal(server.chatRequests.length, 1);
        assert.equal(events.filter((e) => e.type === 'retrying').length, 0);
      });
    });
  }
});
