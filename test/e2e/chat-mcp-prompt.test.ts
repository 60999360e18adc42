// An MCP prompt as a slash command in the real chat (server-everything from npm): after the server
// was approved from its card, typing "/mcp.every" in the message box lists its prompts in a list
// box; Enter takes the highlighted one (it does not send), the argument is typed after it, and the
// prompt's message is what the model gets as the user's turn. An "@" word suggests the server's
// resources; the one taken is attached to the message (the chat says so).
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';
import { EVERYTHING } from '../support/mcp/servers';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  'patchpilot.mcp.servers': { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
  'patchpilot.mcp.unsandboxedServers': ['everything'],
  // The third goal carries the whole chat, the tools and a 1 KB resource: in the 8k window assumed for
  // an unknown model it is compacted first, and the summary request would take the script's third turn.
  'patchpilot.llm.contextWindows': { 'scripted-model': 32_768 },
};
const scripted = useScriptedModel(
  [
    { reply: { text: 'Hello there.' } },
    { reply: { text: 'Sunny in Paris.' }, expect: { anyMessageContains: "What's weather in Paris?" } },
    {
      reply: { text: 'Read the extension notes.' },
      expect: { anyMessageContains: '--- attached resource @everything:demo://resource/static/document/extension.md ---' },
    },
  ],
  settings,
);

e2eTest(
  'MCP in the message box: "/" suggests a prompt, Enter takes it, its message is the turn; "@" suggests a resource, attached when sent',
  async (vs) => {
    const chat = await sendInChat(vs, 'hi');
    const approve = getByRoleIn(chat, 'button', /^Approve mcp server: start MCP server "everything"/);
    await approve.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await approve.click();
    await chat
      .getByText('Hello there.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    const box = getByRoleIn(chat, 'textbox', 'Message PatchPilot');
    await box.fill('/mcp.every');
    const option = chat.getByRole('option', { name: /\/mcp\.everything\.args-prompt/ });
    await option.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    await vs.screenshot('mcp-prompt-suggestions');
    // The prompts come in the server's order; the highlighted one moves with the arrow keys.
    const options = await chat.getByRole('option').allTextContents();
    const index = options.findIndex((t) => t.startsWith('/mcp.everything.args-prompt'));
    await box.focus();
    for (let i = 0; i < index; i++) await vs.page.keyboard.press('ArrowDown');
    await vs.page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), '/mcp.everything.args-prompt ', 'Enter took the command and sent nothing');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    await box.pressSequentially('city=Paris');
    await vs.page.keyboard.press('Enter');
    await chat
      .getByText('Sunny in Paris.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    // A resource: an @ word suggests the server's resources; the one taken is attached when sent.
    await box.fill('Summarize @everything:demo://resource/static/document/ext');
    await chat
      .getByRole('option', { name: /@everything:demo:\/\/resource\/static\/document\/extension\.md/ })
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await box.focus();
    await vs.page.keyboard.press('Tab');
    assert.equal(await box.inputValue(), 'Summarize @everything:demo://resource/static/document/extension.md ');
    await vs.page.keyboard.press('Enter');
    await chat
      .getByText(/^Attached @everything:demo:\/\/resource\/static\/document\/extension\.md \([\d,]+ characters\)\.$/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat
      .getByText('Read the extension notes.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { settings },
);
