// The CLI's answers to an MCP server's elicitation (src/cli/node/elicitors.ts): on a terminal the
// fields are asked one by one (Enter keeps the default, a wrong answer is asked again), a link opens
// only after "Open <url>?" is answered yes; headless, every request is declined and said so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { DecliningElicitor, TerminalElicitor } from '../../../src/cli/node/elicitors';

function terminal(answers: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.setEncoding('utf8').on('data', (d: string) => {
    shown += d;
    if (/(: |\] |\? )$/.test(stripVTControlCharacters(d)) && answers.length) setImmediate(() => input.write(`${answers.shift()}\n`));
  });
  return { input, output, shown: () => stripVTControlCharacters(shown) };
}

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your full name' },
    age: { type: 'integer', title: 'Age', minimum: 0, default: 30 },
    agree: { type: 'boolean', title: 'Agree' },
  },
  required: ['name'],
};
const signal = () => new AbortController().signal;

test('terminal form: fill in, a wrong number is asked again, Enter keeps the default', async () => {
  const t = terminal(['f', 'Ada', 'old', '', 'y']);
  const answer = await new TerminalElicitor(t.input, t.output).elicit(
    { server: 'srv', mode: 'form', message: 'Who are you?', requestedSchema: schema },
    signal(),
  );
  assert.deepEqual(answer, { action: 'accept', content: { name: 'Ada', age: 30, agree: true } });
  assert.match(t.shown(), /MCP server "srv" asks: Who are you\?/);
  assert.match(t.shown(), /Name \* \(Your full name\): /);
  assert.match(t.shown(), /Age: enter a number/);
  assert.match(t.shown(), /Age \[30\]: /);
});

test('terminal: decline and cancel; a link opens only after yes, and only http(s)', async () => {
  const d = terminal(['d']);
  assert.deepEqual(await new TerminalElicitor(d.input, d.output).elicit({ server: 's', mode: 'form', message: 'm', requestedSchema: schema }, signal()), {
    action: 'decline',
  });
  const c = terminal(['x']);
  assert.deepEqual(await new TerminalElicitor(c.input, c.output).elicit({ server: 's', mode: 'form', message: 'm', requestedSchema: schema }, signal()), {
    action: 'cancel',
  });
  const opened: string[] = [];
  const url = { server: 's', mode: 'url' as const, message: 'Sign in', url: 'https://example.com/auth', elicitationId: '1' };
  const no = terminal(['n']);
  assert.deepEqual(await new TerminalElicitor(no.input, no.output, (u) => opened.push(u)).elicit(url, signal()), { action: 'decline' });
  assert.equal(opened.length, 0, 'no link opened on no');
  assert.match(no.shown(), /Open https:\/\/example\.com\/auth\? \[y\/N\]/);
  const yes = terminal(['y']);
  assert.deepEqual(await new TerminalElicitor(yes.input, yes.output, (u) => opened.push(u)).elicit(url, signal()), { action: 'accept' });
  assert.deepEqual(opened, ['https://example.com/auth']);
  const file = terminal([]);
  assert.deepEqual(await new TerminalElicitor(file.input, file.output, (u) => opened.push(u)).elicit({ ...url, url: 'file:///etc/passwd' }, signal()), {
    action: 'decline',
  });
  assert.equal(opened.length, 1);
});

test('headless: declined, and the user is told which server asked', async () => {
  const warned: string[] = [];
  const answer = await new DecliningElicitor({ warn: (m) => warned.push(m) }).elicit({
    server: 'srv',
    mode: 'form',
    message: 'Who\u001b[31m are you?',
    requestedSchema: schema,
  });
  assert.deepEqual(answer, { action: 'decline' });
  assert.deepEqual(warned, ['MCP server "srv" asked for input (Who[31m are you?); declined: no terminal to ask on']);
});
