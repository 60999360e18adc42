// Run Goal from the command palette, then a reload, in a real VS Code: the goal typed into the input
// box runs and shows live in the chat with a progress notification; after "Reload Window" the chat
// still shows the conversation, and a follow-up continues it (the model sees the earlier turns).
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model' };

const scripted = useScriptedModel(
  [
    // Slow enough for the progress notification to be seen while the run works.
    { reply: { text: 'The notes file has two lines about the release checklist.', textChunkSize: 6, chunkDelayMs: 120 } },
    { reply: { text: 'Yes: the second line says to tag the release.' }, expect: { anyMessageContains: 'Summarise the notes' } },
  ],
  settings,
);

e2eTest(
  'Run Goal from the palette shows the run in the chat; after a reload the chat keeps it and a follow-up continues it',
  async (vs) => {
    await vs.runCommand('PatchPilot: Run Goal');
    const box = vs.page.locator('.quick-input-widget input.input');
    await box.waitFor({ state: 'visible' });
    await box.fill('Summarise the notes');
    await vs.page.keyboard.press('Enter');
    // The progress notification with Cancel while the run works.
    await vs.waitForNotification(/Summarise the notes/);
    const chat = await vs.webviewFrame('PatchPilot');
    await chat
      .getByText('release checklist')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('run-goal-live');
    // The reload comes after the run ended (Stop disabled again), so the follow-up has a whole turn to continue.
    await chat.getByRole('button', { name: 'Stop', disabled: true }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    await vs.reload();
    await vs.openViewContainer('PatchPilot');
    const again = await vs.webviewFrame('PatchPilot');
    await again.getByText('release checklist').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await again.getByText('Summarise the notes').first().waitFor({ state: 'visible' });

    const followUp = await sendInChat(vs, 'Does it mention tagging?');
    await followUp
      .getByText('the second line says to tag the release')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('run-goal-after-reload');
    assert.deepEqual(scripted.server.mismatches, []);
    const messages = (scripted.server.chatRequests.at(-1)?.body as { messages: { role: string; content: unknown }[] }).messages;
    const users = messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    assert.ok(users.some((u) => u.includes('Summarise the notes')) && users.some((u) => u.includes('Does it mention tagging?')), JSON.stringify(users));
  },
  { files: { 'notes.txt': 'release checklist\ntag the release\n' }, settings },
);
