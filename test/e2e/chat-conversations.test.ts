// The empty chat and the conversations to go back to, as a person uses them: the empty chat says what
// PatchPilot can do and offers goals made from this project ("Try: ..."); one click runs one. After
// New Chat, "Continue: ..." opens that conversation again and a follow-up continues it (the model sees
// the earlier turns); a changed model is said in the chat before it gets them; Run Goal asks whether
// to start a new conversation; the history panel's "Continue in Chat" opens a run's conversation.
import assert from 'node:assert/strict';
import { useScriptedModel } from './support/chat';
import { editorWebviewFrame } from './support/editorWebview';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const FIRST = 'explain how this JavaScript project is organized';
const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
const scripted = useScriptedModel(
  [
    { reply: { text: 'One module, src/shapes.js, and its test.' }, expect: { lastMessageContains: FIRST } },
    { reply: { text: 'The test checks area only.' }, expect: { anyMessageContains: 'One module, src/shapes.js', model: 'scripted-model-2' } },
    { reply: { text: 'A fresh start.' }, expect: { lastMessageContains: 'list the exports' } },
  ],
  settings,
);

e2eTest(
  'empty chat: what it can do and Try goals; Continue an earlier conversation; model change said; Run Goal asks; Continue in Chat',
  async (vs) => {
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    const start = chat.getByRole('region', { name: 'Start here' });
    await start.getByText('What PatchPilot can do').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await getByRoleIn(chat, 'button', 'Try: run the tests (npm test) and fix what fails').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.screenshot('chat-empty-state');
    await getByRoleIn(chat, 'button', `Try: ${FIRST}`).click();
    await chat
      .getByText('One module, src/shapes.js, and its test.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(await start.count(), 0, 'the start page goes once the conversation begins');

    // New Chat, then back to the earlier conversation from the empty chat.
    // The view's title button (the chat's one New Chat control).
    await vs.page
      .getByRole('button', { name: /^New Chat/ })
      .first()
      .click();
    const again = getByRoleIn(chat, 'button', `Continue: ${FIRST}`);
    await again.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await again.click();
    await chat.getByText('One module, src/shapes.js, and its test.').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat
      .getByText(/^Reopened as it was shown/)
      .first()
      .waitFor({ state: 'visible' });

    // The model changes before the follow-up: the chat says the new model gets the earlier turns.
    vs.writeFile('.vscode/settings.json', JSON.stringify({ 'patchpilot.llm.model': 'scripted-model-2' }));
    await chat.getByText('Model: scripted-model-2').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await getByRoleIn(chat, 'textbox', 'Message PatchPilot').fill('and the tests?');
    await getByRoleIn(chat, 'button', 'Send').click();
    await chat
      .getByText(/^The model changed from scripted-model to scripted-model-2/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat
      .getByText('The test checks area only.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    // Run Goal with a conversation in the chat asks; "Start New Conversation" starts clean.
    await vs.runCommand('PatchPilot: Run Goal');
    const box = vs.page.locator('.quick-input-widget input.input');
    await box.waitFor({ state: 'visible' });
    await box.fill('list the exports');
    await box.press('Enter');
    await vs.page.getByRole('button', { name: 'Start New Conversation' }).click();
    await chat
      .getByText('A fresh start.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(await chat.getByText('The test checks area only.').count(), 0, 'the new conversation does not show the old one');
    const last = scripted.server.requests.at(-1)?.body as { messages?: { content?: unknown }[] } | undefined;
    assert.doesNotMatch(JSON.stringify(last?.messages ?? []), /One module, src\/shapes\.js/, 'the new conversation does not send the old turns');

    // The history panel: Continue in Chat on the first conversation's run.
    await vs.runCommand('PatchPilot: Show History');
    const panel = await editorWebviewFrame(vs.page, 'PatchPilot History');
    await getByRoleIn(panel, 'listbox', 'Runs')
      .getByRole('option', { name: new RegExp(`^${FIRST}`) })
      .click();
    await getByRoleIn(panel, 'button', 'Continue in Chat').click();
    await chat
      .getByText(/^Reopened as it was shown/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByText('One module, src/shapes.js, and its test.').first().waitFor({ state: 'visible' });
    assert.deepEqual(scripted.server.mismatches, []);
  },
  {
    files: {
      'package.json': JSON.stringify({ name: 'shapes', scripts: { test: 'node --test' } }),
      'src/shapes.js': 'exports.area = (w, h) => w * h;\n',
      'src/shapes.test.js': "require('node:test')('area', () => {});\n",
    },
    settings,
  },
);
