// Restricted Mode in a real VS Code: the chat says so, a proposed patch is only described (plan
// mode), no diff review opens and nothing is written. Skipped with the reason when code-server is
// not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const BEFORE = "module.exports = () => 'helo, world';\n";
const PATCH = ['--- a/greet.js', '+++ b/greet.js', '@@ -1 +1 @@', `-${BEFORE.trimEnd()}`, "+module.exports = () => 'hello, world';", ''].join('\n');

// User settings (the endpoint may come from there in an untrusted workspace); filled in before().
const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model' };

const scripted = useScriptedModel(
  [
    { reply: { text: 'Here is the fix I would make.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Trust the workspace to apply it.' } },
  ],
  settings,
);

e2eTest(
  'restricted mode: the chat explains, the proposed patch is not reviewed and nothing is written',
  async (vs) => {
    const chat = await sendInChat(vs, 'Fix the typo in the greeting');
    await chat.getByText('Restricted Mode').first().waitFor({ state: 'visible' });
    await chat
      .getByText('Trust the workspace to apply it.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-restricted');
    assert.equal(await vs.page.locator('.monaco-diff-editor').count(), 0, 'no diff review opened');
    assert.equal(vs.readFile('greet.js'), BEFORE);
    // The model was told the patch was not applied.
    const toolResult = JSON.stringify(scripted.server.requests.at(-1)?.body ?? {});
    assert.match(toolResult, /NOT applied/);
  },
  { files: { 'greet.js': BEFORE }, settings, workspaceTrust: true },
);
