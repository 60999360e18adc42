import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIConnectionError, APIError } from 'openai';
import { classifyError } from '../../../src/core/llm/classifyError';
import { TurnAssembler } from '../../../src/core/llm/turnAssembler';
import type { ModelStreamEvent } from '../../../src/core/llm/types';

const ctx = { baseUrl: 'http://127.0.0.1:8080/v1', model: 'm' };
const statusError = (status: number, body: unknown, h: Record<string, string> = {}) => APIError.generate(status, body as object, undefined, new Headers(h));

describe('classifyError: HTTP statuses', () => {
  const table: [number, unknown, string, boolean][] = [
    [400, { error: { message: 'bad' } }, 'bad-request', false],
    [401, { error: { message: 'no' } }, 'auth', false],
    [402, { error: { message: 'Insufficient credits' } }, 'quota', false],
    [403, { error: { message: 'no' } }, 'auth', false],
    [404, { error: { message: 'no model' } }, 'bad-request', false],
    [408, undefined, 'timeout', true],
    [409, undefined, 'server', true],
    [413, { error: { message: 'prompt is too long' } }, 'context-overflow', false],
    [422, { error: { message: 'bad' } }, 'bad-request', false],
    [429, { error: { message: 'slow down' } }, 'rate-limit', true],
    [429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }, 'quota', false],
    [429, { error: { message: 'check your billing details' } }, 'quota', false],
    [500, undefined, 'server', true],
    [502, undefined, 'server', true],
    [503, undefined, 'server', true],
    [400, { error: { message: 'x', code: 'context_length_exceeded' } }, 'context-overflow', false],
    [400, { error: 'model requires more context than available' }, 'bad-request', false],
  ];
  for (const [status, body, kind, retryable] of table) {
    test(`${status} ${JSON.stringify(body) ?? ''} -> ${kind}`, () => {
      const e = classifyError(statusError(status, body), ctx);
      assert.equal(e.kind, kind);
      assert.equal(e.retryable, retryable);
      assert.equal(e.status, status);
      assert.match(e.message, new RegExp(`^${status} from http://127\\.0\\.0\\.1:8080/v1: `));
    });
  }

  test('an Ollama-style string error body is shown as is', () => {
    assert.match(classifyError(statusError(404, { error: 'model "llama9" not found' }), ctx).message, /server said: model "llama9" not found/);
  });

  test('Retry-After travels with the error', () => {
    assert.equal(classifyError(statusError(429, {}, { 'retry-after': '7' }), ctx).retryAfterMs, 7000);
  });
});

describe('classifyError: hints name the value really in effect', () => {
  const from = { baseUrl: '--base-url', model: '$PATCHPILOT_MODEL', apiKey: '$OPENAI_API_KEY', apiKeyHelp: 'set PATCHPILOT_API_KEY' };
  test('401 with a key: names the variable the key came from, not a setting', () => {
    const e = classifyError(statusError(401, { error: { message: 'bad key' } }), { ...ctx, origins: from });
    assert.match(e.message, /: the API key from \$OPENAI_API_KEY was refused: check it \(server said: bad key\)$/);
    assert.doesNotMatch(e.message, /patchpilot\.llm/);
  });
  test('401 without a key: says none was sent and how this host sets one', () => {
    const e = classifyError(statusError(401, {}), { ...ctx, origins: { ...from, apiKey: undefined } });
    assert.match(e.message, /no API key was sent and the server wants one: set PATCHPILOT_API_KEY/);
  });
  test('403, 404 and an unreachable server name where the model and the URL came from', () => {
    assert.match(
      classifyError(statusError(403, {}), { ...ctx, origins: from }).message,
      /from \$OPENAI_API_KEY may not use model "m" \(from \$PATCHPILOT_MODEL\)/,
    );
    assert.match(
      classifyError(statusError(404, {}), { ...ctx, origins: from }).message,
      /check the base URL \(from --base-url\) and that model "m" \(from \$PATCHPILOT_MODEL\) exists there/,
    );
    const cause = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    assert.match(classifyError(new APIConnectionError({ cause }), { ...ctx, origins: from }).message, /check the base URL \(from --base-url\)$/);
  });
});

describe('classifyError: connections and streams', () => {
  test('refused connection: unreachable, not retried (nothing listens; the setting needs fixing), with the code and the setting to check', () => {
    const cause = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' }),
    });
    const e = classifyError(new APIConnectionError({ cause }), ctx);
    assert.equal(e.kind, 'unreachable');
    assert.equal(e.retryable, false);
    assert.match(
      e.message,
      /could not reach http:\/\/127\.0\.0\.1:8080\/v1: connect ECONNREFUSED 127\.0\.0\.1:8080; is the server running\? check the base URL \(from patchpilot\.llm\.baseUrl\)/,
    );
  });

  test('socket hang up, premature close: network', () => {
    for (const msg of ['socket hang up', 'Premature close', 'terminated']) {
      assert.equal(classifyError(new Error(msg), ctx).kind, 'network', msg);
    }
  });

  test('an error object inside the stream (no status): server, retryable unless it is about quota', () => {
    const inStream = new APIError(undefined, { message: 'upstream overloaded' }, undefined, undefined);
    assert.deepEqual([classifyError(inStream, ctx).kind, classifyError(inStream, ctx).retryable], ['server', true]);
    const quota = new APIError(undefined, { message: 'insufficient credits' }, undefined, undefined);
    assert.deepEqual([classifyError(quota, ctx).kind, classifyError(quota, ctx).retryable], ['quota', false]);
  });

  test('anything else: a non-retryable server error that says what happened', () => {
    const e = classifyError(new SyntaxError('Unexpected token < in JSON'), ctx);
    assert.equal(e.retryable, false);
    assert.match(e.message, /unexpected reply from .*Unexpected token/);
  });
});

describe('TurnAssembler', () => {
  const chunk = (delta: object, finish: string | null = null) =>
    ({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) as never;

  test('tolerates servers that omit tool-call index and id, and arguments before the name', () => {
    const events: ModelStreamEvent[] = [];
    const a = new TurnAssembler((e) => events.push(e));
    a.push(chunk({ tool_calls: [{ function: { arguments: '{"a":' } }] }));
    a.push(chunk({ tool_calls: [{ function: { name: 'grep', arguments: '1}' } }] }));
    a.push(chunk({}, 'tool_calls'));
    const { valid, invalid } = a.finishToolCalls();
    assert.equal(invalid.length, 0);
    assert.equal(valid[0]!.name, 'grep');
    assert.equal(valid[0]!.argumentsJson, '{"a":1}');
    assert.match(valid[0]!.id, /^call_0_/);
    const deltas = events.filter((e) => e.type === 'tool-call-delta').map((e) => (e as { argumentsDelta: string }).argumentsDelta);
    assert.equal(deltas.join(''), '{"a":1}');
  });

  test('a call without a name is invalid', () => {
    const a = new TurnAssembler(() => {});
    a.push(chunk({ tool_calls: [{ index: 0, id: 'c', function: { arguments: '{}' } }] }));
    assert.equal(a.finishToolCalls().invalid[0]!.problem, 'the tool call has no function name');
  });

  test('a role-only chunk is not output; text is', () => {
    const a = new TurnAssembler(() => {});
    a.push(chunk({ role: 'assistant', content: '' }));
    assert.equal(a.outputStarted, false);
    a.push(chunk({ content: 'hi' }));
    assert.equal(a.outputStarted, true);
  });
});
