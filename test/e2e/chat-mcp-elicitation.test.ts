// An MCP server's form in the real chat (server-everything from npm, its trigger-elicitation-request
// tool): the scripted model calls the tool, the form shows as a card in the chat with one labelled
// input per field; a required field left empty is marked invalid next to it; filled in by label,
// hidden and shown again (what was typed stays) and sent with "Accept and send", the values are what
// the tool returns to the model. A second request is declined from its card, and the model hears the
// decline; a third goes away when the run is stopped.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';
import { EVERYTHING } from '../support/mcp/servers';

const TOOL = 'mcp__everything__trigger-elicitation-request';
const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  'patchpilot.mcp.servers': { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], alwaysAllow: ['trigger-elicitation-request'] } },
  'patchpilot.mcp.unsandboxedServers': ['everything'],
};
const scripted = useScriptedModel(
  [
    { reply: { text: 'Asking the server.', toolCalls: [{ name: TOOL, arguments: {} }] }, expect: { toolsInclude: [TOOL] } },
    {
      reply: { text: 'Thanks, Ada.' },
      check: ({ body }) => {
        const text = JSON.stringify(body.messages);
        for (const want of ['- Name: Ada Lovelace', '- Agreed to terms: true', '- Favorite Integer: 7'])
          if (!text.includes(want)) return `the tool result lacks ${JSON.stringify(want)}`;
      },
    },
    { reply: { text: 'Asking again.', toolCalls: [{ name: TOOL, arguments: {} }] } },
    { reply: { text: 'Understood, declined.' }, expect: { lastMessageContains: 'User declined to provide the requested information.' } },
    { reply: { text: 'One last time.', toolCalls: [{ name: TOOL, arguments: {} }] } },
  ],
  settings,
);

e2eTest(
  "MCP elicitation in the chat: the server's form is a card, filled in by label and sent; its values reach the model; Decline is heard too",
  async (vs) => {
    const chat = await sendInChat(vs, 'Tell the server who I am');
    const approve = getByRoleIn(chat, 'button', /^Approve mcp server: start MCP server "everything"/);
    await approve.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await approve.click();

    const card = chat.getByRole('region', { name: 'MCP server "everything" asks for input' });
    await card.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await card.getByText('Please provide inputs for the following fields:').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    const name = card.getByRole('textbox', { name: 'String (required)', exact: true });
    // Defaults are filled in.
    assert.equal(await card.getByRole('textbox', { name: 'String with default', exact: true }).inputValue(), 'It was a dark and stormy night.');
    assert.equal(await card.getByRole('spinbutton', { name: 'Integer', exact: true }).inputValue(), '42');

    // Sent empty: the required field says so next to it and is marked invalid; nothing is sent.
    await card.getByRole('button', { name: /^Accept and send/ }).click();
    await card.getByText('String is required').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    const describedBy = (await name.getAttribute('aria-describedby')) ?? '';
    assert.ok(describedBy.split(' ').includes((await card.locator('.pp-field-error:not([hidden])').getAttribute('id')) ?? '-'), describedBy);
    await vs.screenshot('mcp-elicitation-card');

    await name.fill('Ada Lovelace');
    await card.getByRole('spinbutton', { name: 'Integer', exact: true }).fill('7');
    await card.getByRole('checkbox', { name: 'Boolean', exact: true }).click();
    // Hidden and shown again (the view is rebuilt): the card and what was typed into it are still there.
    await vs.openViewContainer('Explorer');
    await vs.openViewContainer('PatchPilot');
    const shown = await vs.webviewFrame('PatchPilot');
    const again = shown.getByRole('region', { name: 'MCP server "everything" asks for input' });
    const typedName = again.getByRole('textbox', { name: 'String (required)', exact: true });
    await typedName.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await typedName.inputValue(), 'Ada Lovelace');
    assert.equal(await again.getByRole('spinbutton', { name: 'Integer', exact: true }).inputValue(), '7');
    assert.equal(await again.getByRole('checkbox', { name: 'Boolean', exact: true }).getAttribute('aria-checked'), 'true');
    await again.getByRole('button', { name: /^Accept and send/ }).click();
    await shown
      .getByText('Thanks, Ada.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await again.waitFor({ state: 'detached', timeout: E2E_TIMEOUT });

    await getByRoleIn(shown, 'textbox', 'Message PatchPilot').fill('Once more');
    await getByRoleIn(shown, 'button', 'Send').click();
    await again.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await again.getByRole('button', { name: /^Decline the request/ }).click();
    await shown
      .getByText('Understood, declined.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    // Stop while the card waits: the card goes away (the server hears cancel) and the run ends.
    await getByRoleIn(shown, 'textbox', 'Message PatchPilot').fill('And again');
    await getByRoleIn(shown, 'button', 'Send').click();
    await again.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await getByRoleIn(shown, 'button', 'Stop').click();
    await again.waitFor({ state: 'detached', timeout: E2E_TIMEOUT });
    await shown.getByRole('button', { name: 'Stop', disabled: true }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { settings },
);
