// A reasoning model in the chat, in a real VS Code (code-server + Chromium): the scripted model
// streams `reasoning_content` (as DeepSeek and vLLM do) before its answer. The chat shows the
// reasoning in a collapsed block whose name says what activating it does ("Show Thinking"), the
// answer apart; and a failed run offers "Retry Run", which sends the goal again.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const REASONING = 'The user asks about greet.js; the word helo looks like a typo.';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'deepseek-reasoner',
  'patchpilot.approval.mode': 'ask',
};

const scripted = useScriptedModel(
  [
    { reply: { reasoning: REASONING, text: 'Yes: "helo" should be "hello".' } },
    // The second goal first meets a refusal of the server (not retried), then, on Retry, an answer.
    {
      reply: { text: 'Answered on the second try.' },
      faults: [{ kind: 'status', status: 400, body: { error: { message: 'the server rejected this once' } } }],
    },
  ],
  settings,
);

e2eTest(
  'chat: a reasoning model\'s thinking shows in a collapsed "Show Thinking" block above its answer; a failed run offers Retry Run',
  async (vs) => {
    const chat = await sendInChat(vs, 'Is there a typo in the greeting?');
    await chat
      .getByText('should be "hello"')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    // Collapsed: the toggle is there, the reasoning is not shown.
    const toggle = chat.locator('summary', { hasText: /^Show Thinking$/ }).first();
    await toggle.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await chat.getByText(REASONING).first().isVisible(), false, 'the reasoning starts collapsed');
    await vs.screenshot('chat-thinking-collapsed');

    // Opened with the keyboard: the name now says what closing does, and the reasoning reads as text.
    await toggle.focus();
    await vs.page.keyboard.press('Enter');
    await chat
      .locator('summary', { hasText: /^Hide Thinking$/ })
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByText(REASONING).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // Above the answer, in the same run.
    const order = await chat
      .locator('.pp-run')
      .last()
      .evaluate((run) => Array.from(run.querySelectorAll('.pp-thinking, .pp-assistant'), (n) => (n.classList.contains('pp-thinking') ? 'thinking' : 'answer')));
    assert.deepEqual(order, ['thinking', 'answer']);
    await vs.screenshot('chat-thinking-open');

    // A failed run: Retry Run sends the goal again and the answer comes.
    await getByRoleIn(chat, 'textbox', 'Message PatchPilot').fill('Say something');
    await getByRoleIn(chat, 'button', 'Send').click();
    const retry = getByRoleIn(chat, 'button', 'Retry Run');
    await retry.first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-run-failed-retry');
    await retry.first().click();
    await chat
      .getByText('Answered on the second try.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': "module.exports = () => 'helo, world';\n" }, settings },
);
