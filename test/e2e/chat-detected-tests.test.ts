// A new user's own JavaScript project with "test": "node --test" and no PatchPilot settings, in a
// real VS Code: the chat offers the project's test command ("Use npm test"), the click writes the
// workspace setting, and a run whose edit breaks a test that passed before the run refuses the
// model's first finish (a notice says so) and ends "finished · tests failed", not a green "finished". Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

// add() works before the run (the baseline passes); the model's edit breaks it: a failure the run introduced.
const WORKING = 'exports.add = (a, b) => a + b;\n';
const TEST =
  "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('./add');\ntest('adds', () => assert.equal(add(2, 2), 4));\n";
const BREAKS = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a + b;\n+exports.add = (a, b) => a + b + 1;\n';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'Changing add.', toolCalls: [{ name: 'propose_patch', arguments: { patch: BREAKS } }] } },
    { reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'Changed add.' } }] }, expect: { lastMessageContains: 'tests FAILED' } },
    // The first finish over failing tests is refused: the model is told and finishes again.
    {
      reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'Changed add; the tests still fail.' } }] },
      expect: { lastMessageContains: 'so the run was not ended' },
    },
  ],
  settings,
);

e2eTest(
  'detected tests: "Use npm test" in the chat configures them; a run whose last tests failed does not end green',
  async (vs) => {
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    const use = getByRoleIn(chat, 'button', /^Use npm test/);
    await use.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-detected-tests-offer');
    await use.click();
    const deadline = Date.now() + E2E_TIMEOUT;
    while (!/"patchpilot\.tests\.commands":\s*\[\s*"npm test"\s*\]/.test(safeRead(vs, '.vscode/settings.json'))) {
      if (Date.now() > deadline) assert.fail(`the workspace setting was not written: ${safeRead(vs, '.vscode/settings.json')}`);
      await vs.page.waitForTimeout(200); // polling the disk
    }
    await use.waitFor({ state: 'detached', timeout: E2E_TIMEOUT });

    await sendInChat(vs, 'Fix add');
    await chat
      .getByText('The model called finish while tests its edits broke still fail; it was told which and asked to try again.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat
      .getByText('finished · tests failed')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-detected-tests-failed-end');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'add.js': WORKING, 'add.test.js': TEST, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) }, settings },
);

function safeRead(vs: { readFile(rel: string): string }, rel: string): string {
  try {
    return vs.readFile(rel);
  } catch {
    return '';
  }
}
