// The first minutes with the keyboard only, in a fresh window with no model set up: "Open Chat" puts
// the cursor in the message box the first time (the view's script loads after the command asked),
// "Run Goal" refused for want of a model offers the ways out and keeps the typed goal for the next
// "Run Goal", and "Show History" puts the cursor in the search box and says what it found.
import assert from 'node:assert/strict';
import { e2eTest } from './support/session';
import { editorWebviewFrame } from './support/editorWebview';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const GOAL = 'Make the date test pass';

e2eTest('keyboard first use: Open Chat and Show History take the focus; a refused Run Goal keeps the goal', async (vs) => {
  await vs.runCommand('PatchPilot: Open Chat');
  const chat = await vs.webviewFrame('PatchPilot');
  const message = getByRoleIn(chat, 'textbox', 'Message PatchPilot');
  await message.waitFor({ state: 'visible' });
  // Typed as a person does, straight after the command: nothing clicked in the view.
  await chat.locator(':focus').and(message).waitFor({ timeout: E2E_TIMEOUT });
  await vs.page.keyboard.type('hello');
  assert.equal(await message.inputValue(), 'hello');

  await vs.runCommand('PatchPilot: Run Goal');
  const box = vs.page.locator('.quick-input-widget input.input');
  await box.fill(GOAL);
  await box.press('Enter');
  const refusal = await vs.waitForNotification(/No model endpoint.*Your goal is kept/);
  for (const way of ['Use Demo Model', 'Select Model', 'Set API Key', 'Open Settings']) await refusal.getByRole('button', { name: way }).waitFor();
  await vs.runCommand('PatchPilot: Run Goal');
  // The palette's own text leaves the box as the command's input box takes it over.
  const deadline = Date.now() + E2E_TIMEOUT;
  while ((await box.inputValue()) !== GOAL && Date.now() < deadline) await vs.page.waitForTimeout(100);
  assert.equal(await box.inputValue(), GOAL, 'the goal waits in the next Run Goal');
  await box.press('Escape');

  await vs.runCommand('PatchPilot: Show History');
  const history = await editorWebviewFrame(vs.page, 'PatchPilot History');
  const search = getByRoleIn(history, 'searchbox', 'Search history');
  await history.locator(':focus').and(search).waitFor({ timeout: E2E_TIMEOUT });
  await vs.page.keyboard.type('date');
  assert.equal(await search.inputValue(), 'date');
  await history
    .getByRole('status')
    .getByText(/No matches for "date"|results? for "date"/)
    .waitFor({ timeout: E2E_TIMEOUT });
});
