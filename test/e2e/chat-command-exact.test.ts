// The chat's command card shows the exact bytes that would run (src/protocol/exactCommand.ts): a
// command with two spaces and a newline is not collapsed into one line with single spaces; the
// card says it is shown escaped, and Deny runs nothing.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const COMMAND = 'echo  kept\nrm notes.txt';
const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
const scripted = useScriptedModel(
  [
    { reply: { text: 'Cleaning up.', toolCalls: [{ name: 'run_command', arguments: { command: COMMAND } }] } },
    { reply: { text: 'Understood.' }, expect: { anyMessageContains: 'the user declined' } },
  ],
  settings,
);

e2eTest(
  "command approval in the chat: two spaces and a newline are shown as such, in the card's monospace title",
  async (vs) => {
    const chat = await sendInChat(vs, 'Tidy up');
    const title = chat.locator('.pp-approval-title').first();
    await title.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(await title.textContent(), 'echo␠␠kept\\nrm notes.txt');
    const whiteSpace = await title.evaluate((e) => getComputedStyle(e).whiteSpace);
    assert.equal(whiteSpace, 'pre-wrap', 'nothing collapsed');
    await chat
      .getByText(/^shown escaped, exactly as it runs/)
      .first()
      .waitFor({ state: 'visible' });
    await vs.screenshot('command-approval-exact');
    await chat
      .getByRole('button', { name: /^Deny command: / })
      .first()
      .click();
    await chat
      .getByText('Understood.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(vs.readFile('notes.txt'), 'tidewater\n', 'the denied command did not run');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'notes.txt': 'tidewater\n' }, settings },
);
