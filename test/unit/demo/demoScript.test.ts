import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixPatch, nextDemoReply } from '../../../src/core/demo/demoScript';

const user = (content: string) => ({ role: 'user', content });
const step = (id: string, name: string, result: string, args: object = {}) => [
  { role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
  { role: 'tool', tool_call_id: id, content: result },
];
const firstCall = (r: ReturnType<typeof nextDemoReply>) => r.toolCalls?.[0];
const numbered = (lines: string[]) => `dates.js (${lines.length} lines)\n${lines.map((l, i) => `${i + 1}\t${l}`).join('\n')}`;

test('a new goal starts with the tests; a note from PatchPilot is not a new goal', () => {
  assert.equal(firstCall(nextDemoReply([user('fix it')]))?.name, 'run_tests');
  const midway = [user('fix it'), ...step('a', 'run_tests', 'tests FAILED'), user('[PatchPilot] The user saved files')];
  assert.equal(firstCall(nextDemoReply(midway))?.name, 'read_file');
});

test('the patch is built from the lines read, wherever the bug sits, with context clipped at the file edges', () => {
  const lines = ['const m = d.getUTCMonth();', 'module.exports = m;'];
  const patch = fixPatch(lines)!;
  assert.equal(
    patch,
    ['--- a/dates.js', '+++ b/dates.js', '@@ -1,2 +1,2 @@', '-const m = d.getUTCMonth();', '+const m = d.getUTCMonth() + 1;', ' module.exports = m;', ''].join(
      '\n',
    ),
  );
  assert.equal(fixPatch(['const m = d.getUTCMonth() + 1;']), undefined);
});

test('an already fixed file ends the walk without a patch', () => {
  const r = nextDemoReply([user('fix'), ...step('a', 'run_tests', 'tests passed'), ...step('b', 'read_file', numbered(['x = d.getUTCMonth() + 1;']))]);
  assert.equal(firstCall(r)?.name, 'finish');
  assert.match(JSON.stringify(r.toolCalls), /nothing left for the demo to fix/);
});

test('a rejected patch ends the walk and repeats the user reason; nothing is retried', () => {
  const msgs = [
    user('fix'),
    ...step('a', 'run_tests', 'tests FAILED'),
    ...step('b', 'read_file', numbered(['x = d.getUTCMonth();'])),
    ...step('c', 'propose_patch', 'the user rejected the patch; nothing was changed.\nrejected hunks:\n  dates.js#1: use a month table instead'),
  ];
  const r = nextDemoReply(msgs);
  assert.equal(firstCall(r)?.name, 'finish');
  assert.match(String((firstCall(r)?.arguments as { summary: string }).summary), /use a month table instead/);
});

test('a refused patch is quoted, and an applied one without a test verdict runs the tests', () => {
  const base = [user('fix'), ...step('a', 'run_tests', 'no test commands are configured'), ...step('b', 'read_file', numbered(['x = d.getUTCMonth();']))];
  const refused = nextDemoReply([...base, ...step('c', 'propose_patch', 'patch refused, nothing was changed.\ncontext not found')]);
  assert.match(String((firstCall(refused)?.arguments as { summary: string }).summary), /context not found/);
  const applied = nextDemoReply([...base, ...step('c', 'propose_patch', 'applied 1 hunk to dates.js')]);
  assert.equal(firstCall(applied)?.name, 'run_tests');
  const done = nextDemoReply([
    ...base,
    ...step('c', 'propose_patch', 'applied 1 hunk to dates.js'),
    ...step('d', 'run_tests', 'no test commands are configured'),
  ]);
  assert.match(String((firstCall(done)?.arguments as { summary: string }).summary), /run the tests yourself/);
});

test('a finish refused because the tests fail: the demo finishes again, saying the tests still fail', () => {
  const msgs = [
    user('fix'),
    ...step('a', 'run_tests', 'tests FAILED'),
    ...step('b', 'finish', 'done'),
    user('[PatchPilot] You called finish, but the tests ...'),
  ];
  const r = nextDemoReply(msgs);
  assert.equal(firstCall(r)?.name, 'finish');
  assert.match(JSON.stringify(r.toolCalls), /The tests still fail, and the demo model has nothing else to try/);
});
