// "Allow Always" on a command's approval card, as a person uses it: choose "Starting with: touch" and
// "In this workspace", press Allow Always. The command runs now, the pattern lands in the workspace's
// patchpilot.policy.allow (where Settings shows and removes it), the chat says so, and the next run's
// `touch` runs without a card, in ask mode. A denied command (the default deny rules) still is denied.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
const scripted = useScriptedModel(
  [
    { reply: { text: 'Making the marker.', toolCalls: [{ name: 'run_command', arguments: { command: 'touch first.txt' } }] } },
    { reply: { text: 'Marker made.' }, expect: { anyMessageContains: '$ touch first.txt' } },
    { reply: { text: 'Another one.', toolCalls: [{ name: 'run_command', arguments: { command: 'touch second.txt' } }] } },
    { reply: { text: 'Second marker made without asking.' }, expect: { anyMessageContains: '$ touch second.txt' } },
  ],
  settings,
);

e2eTest(
  'Allow Always on a command card: the prefix goes to the workspace settings and the next run does not ask',
  async (vs) => {
    const chat = await sendInChat(vs, 'Make a marker file');
    await getByRoleIn(chat, 'button', 'Approve command: touch first.txt').waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await getByRoleIn(chat, 'combobox', 'Choose what to always allow').selectOption({ label: 'Starting with: touch' });
    await getByRoleIn(chat, 'combobox', 'Choose where to always allow it').selectOption({ label: 'In this workspace' });
    await vs.screenshot('always-allow-card');
    await getByRoleIn(chat, 'button', 'Allow Always').click();
    await chat
      .getByText('Marker made.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat
      .getByText(/Always allowed from the next run on: "touch \*"/)
      .first()
      .waitFor({ state: 'visible' });
    assert.ok(existsSync(path.join(vs.workspace, 'first.txt')));
    const written = JSON.parse(vs.readFile('.vscode/settings.json')) as Record<string, unknown>;
    assert.deepEqual(written['patchpilot.policy.allow'], ['touch *']);

    await getByRoleIn(chat, 'textbox', 'Message PatchPilot').fill('One more marker');
    await getByRoleIn(chat, 'button', 'Send').click();
    await chat
      .getByText('Second marker made without asking.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.ok(existsSync(path.join(vs.workspace, 'second.txt')));
    assert.equal(await getByRoleIn(chat, 'button', /^Approve command/).count(), 0, 'no card asked for the second touch');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'notes.txt': 'x\n' }, settings },
);
