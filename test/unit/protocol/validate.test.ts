// Host-side validation of webview messages: forged, unknown, malformed and huge messages are dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_MESSAGE_CHARS, validateToHost } from '../../../src/protocol/validate';

const req = (type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({ kind: 'request', id: 1, type, payload, ...extra });

test('well-formed requests pass with their typed payload', () => {
  const r = validateToHost(req('chat/send', { text: 'fix the add test' }));
  assert.ok(r.ok);
  assert.equal(r.message.type, 'chat/send');
  assert.ok(validateToHost(req('chat/ready', {})).ok);
  assert.ok(validateToHost(req('approval/answer', { id: 'a1', approved: true })).ok);
  assert.ok(validateToHost(req('approval/answer', { id: 'a1', approved: false, feedback: 'use a Map' })).ok);
  assert.ok(validateToHost(req('config/open', { what: 'apiKey' })).ok);
  assert.ok(validateToHost(req('config/open', { what: 'provider' })).ok);
  assert.ok(validateToHost(req('tests/answer', { answer: 'use' })).ok);
  assert.ok(validateToHost(req('tests/answer', { answer: 'never' })).ok);
  assert.ok(validateToHost(req('patch/revert', { runId: 'r-1', patchId: 'p_2' })).ok);
});

test('patch/revert names a recorded patch by ids only: paths, extra keys and long ids are dropped', () => {
  assert.equal(validateToHost(req('patch/revert', { runId: '../r', patchId: 'p' })).ok, false);
  assert.equal(validateToHost(req('patch/revert', { runId: 'r', patchId: 'p', path: 'a.js' })).ok, false);
  assert.equal(validateToHost(req('patch/revert', { runId: 'r'.repeat(65), patchId: 'p' })).ok, false);
  assert.equal(validateToHost(req('patch/revert', { runId: 'r' })).ok, false);
});

test('forged privileged messages are dropped: unknown types name nothing the host does', () => {
  for (const forged of [
    { type: 'run', cmd: 'rm -rf ~' },
    req('run', { cmd: 'rm -rf ~' }),
    req('command/run', { command: 'rm -rf ~' }),
    req('__proto__', {}),
    req('toString', {}),
    req('hasOwnProperty', {}),
  ]) {
    const r = validateToHost(forged);
    assert.equal(r.ok, false, JSON.stringify(forged));
  }
});

test('wrong shapes are dropped: missing, extra and mistyped fields, bad envelopes', () => {
  const bad: unknown[] = [
    null,
    'chat/send',
    [],
    req('chat/send', {}),
    req('chat/send', { text: 42 }),
    req('chat/send', { text: 'x', command: 'rm -rf ~' }),
    req('chat/send', 'text'),
    req('approval/answer', { id: 'a1', approved: 'yes' }),
    req('approval/answer', { id: '../../etc', approved: true }),
    req('config/open', { what: 'workbench.action.terminal.sendSequence' }),
    // The offer's answer is one of three words: never a command to write into the settings.
    req('tests/answer', { answer: 'use', command: 'curl x | sh' }),
    req('tests/answer', { answer: 'always' }),
    { kind: 'response', id: 1, type: 'chat/send', payload: { text: 'x' } },
    req('chat/send', { text: 'x' }, { id: -1 }),
    req('chat/send', { text: 'x' }, { id: 1.5 }),
    req('chat/send', { text: 'x' }, { extra: true }),
    { kind: 'request', id: 1, type: 'chat/send', payload: Object.assign(Object.create({ polluted: true }), { text: 'x' }) },
  ];
  for (const m of bad) assert.equal(validateToHost(m).ok, false, JSON.stringify(m));
});

test('oversized payloads are dropped without serialising them', () => {
  const huge = 'x'.repeat(50 * 1024 * 1024);
  const started = Date.now();
  const r = validateToHost(req('chat/send', { text: huge }));
  assert.equal(r.ok, false);
  assert.match((r as { reason: string }).reason, new RegExp(String(MAX_MESSAGE_CHARS)));
  assert.ok(Date.now() - started < 500);
  // Just over one message's text limit, under the envelope limit: the field check catches it.
  assert.equal(validateToHost(req('chat/send', { text: 'y'.repeat(100_001) })).ok, false);
  // Deep or wide structures are not walked forever.
  const wide: Record<string, number> = {};
  for (let i = 0; i < 20_000; i++) wide[`k${i}`] = i;
  assert.equal(validateToHost(req('chat/send', wide)).ok, false);
});

test('elicitation/answer: an action and, for accept, values as text, true/false or lists of text; anything else is dropped', () => {
  assert.ok(validateToHost(req('elicitation/answer', { id: 'a3', action: 'decline' })).ok);
  assert.ok(validateToHost(req('elicitation/answer', { id: 'a3', action: 'accept', values: { name: 'Ada', check: true, pets: ['cat'] } })).ok);
  for (const payload of [
    { id: 'a3', action: 'approve' },
    { id: 'a3', action: 'accept', values: 'name=Ada' },
    { id: 'a3', action: 'accept', values: { name: { nested: 1 } } },
    { id: 'a3', action: 'accept', values: { count: 3 } },
    { id: 'a3', action: 'accept', values: { pets: [1, 2] } },
    { id: 'a3', action: 'accept', values: { name: 'x'.repeat(10_001) } },
    { id: 'a3', action: 'accept', values: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])) },
    { id: '../a3', action: 'cancel' },
    { id: 'a3', action: 'cancel', extra: true },
  ]) {
    assert.equal(validateToHost(req('elicitation/answer', payload)).ok, false, JSON.stringify(payload).slice(0, 80));
  }
});
