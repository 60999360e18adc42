import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { NonInteractiveApprover, TerminalApprover, headlessNotice } from '../../../src/cli/node/approvers';
import type { ApplyResult } from '../../../src/core/patch/types';
import { stripVTControlCharacters } from 'node:util';

/** A fake terminal that types the next answer each time a prompt appears. */
function terminal(answers: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.setEncoding('utf8').on('data', (d: string) => {
    shown += d;
    const plain = stripVTControlCharacters(d);
    if (/(: |\] )$/.test(plain) && answers.length) setImmediate(() => input.write(`${answers.shift()}\n`));
  });
  return { input, output, shown: () => shown };
}

const preview: ApplyResult = {
  ok: true,
  dryRun: true,
  reversePatch: '',
  files: [
    {
      operation: 'modify',
      oldPath: 'a.js',
      newPath: 'a.js',
      status: 'ok',
      hunks: [
        { id: 'a.js#1', path: 'a.js', index: 0, status: 'would-apply', range: { start: 1, end: 3 } },
        { id: 'a.js#2', path: 'a.js', index: 1, status: 'would-apply', range: { start: 10, end: 12 } },
      ],
    },
  ],
};

describe('CLI approvers', () => {
  test('terminal: select hunks one by one, then a word for the agent', async () => {
    const t = terminal(['s', 'n', 'y', 'keep the first one']);
    const approver = new TerminalApprover(t.input, t.output);
    const answer = await approver.approvePatch({ patchText: '--- a/a.js\n+++ b/a.js\n', preview }, new AbortController().signal);
    assert.deepEqual(answer, { acceptedHunks: ['a.js#2'], feedback: 'keep the first one' });
    assert.match(t.shown(), /proposed patch \(2 hunks\)/);
    assert.match(t.shown(), /apply a\.js#1 \(lines 1-3\)\?/);
  });

  test('terminal: yes to all asks nothing more; a refused command carries the reason', async () => {
    const t = terminal(['y']);
    assert.deepEqual(await new TerminalApprover(t.input, t.output).approvePatch({ patchText: '', preview }, new AbortController().signal), {
      acceptedHunks: ['a.js#1', 'a.js#2'],
    });
    const c = terminal(['n', '']);
    const answer = await new TerminalApprover(c.input, c.output).approveAction(
      { kind: 'command', title: 'npm install', reason: 'not on the allowlist' },
      new AbortController().signal,
    );
    assert.deepEqual(answer, { approved: false });
    assert.match(c.shown(), /command: npm install\n {2}not on the allowlist/);
    // The exact bytes: two spaces, a tab, a newline and an escape sequence are visible, not acted out.
    const e = terminal(['n', '']);
    await new TerminalApprover(e.input, e.output).approveAction(
      { kind: 'command', title: 'echo  a\tb\n\u001b[2Krm -rf ~', reason: 'r' },
      new AbortController().signal,
    );
    assert.ok(e.shown().includes('command: echo␠␠a\\tb\\n\\x1b[2Krm -rf ~   [shown escaped, exactly as it runs'), e.shown());
  });

  test('headless: everything is refused as unattended (nobody was asked), with a reason the model can act on', async () => {
    const a = new NonInteractiveApprover();
    const patch = await a.approvePatch();
    assert.deepEqual(patch.acceptedHunks, []);
    assert.equal(patch.feedback, undefined, "no words are put in a user's mouth");
    // Only the fact: the hint depends on the mode and the action, and the core adds it (refusalHints.test.ts).
    assert.match(patch.unattended ?? '', /no terminal/);
    assert.doesNotMatch(patch.unattended ?? '', /--approve/);
    const action = await a.approveAction();
    assert.equal(action.approved, false);
    assert.match(action.unattended ?? '', /no terminal/);
  });

  test('headless notice: says before the run what each mode will refuse', () => {
    assert.match(headlessNotice('ask')!, /every patch, file write and command that needs approval will be refused.*"blocked" \(exit 1\).*--approve auto-edit/);
    assert.match(headlessNotice('auto-edit')!, /commands that need approval will be refused/);
    assert.match(headlessNotice('auto')!, /policy still asks about/);
    assert.equal(headlessNotice('plan'), undefined, 'plan mode asks nothing');
  });
});
