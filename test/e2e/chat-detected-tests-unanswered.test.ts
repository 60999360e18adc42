// A new user's project with "test": "node --test" and no PatchPilot settings, in a real VS Code,
// the offer "Use npm test" not answered: the model's run_tests runs the detected command after the
// user approves it from the chat (auto-edit asks before commands), the model reads that it was the
// detected command and how to keep it, the offer stays, and the run ends with its tests run and
// passed, not "tests not run". Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const ADD = 'exports.add = (a, b) => a + b;\n';
const TEST =
  "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('./add');\ntest('adds', () => assert.equal(add(2, 2), 4));\n";
const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'auto-edit' };

const scripted = useScriptedModel(
  [
    { reply: { text: 'Running the tests.', toolCalls: [{ name: 'run_tests', arguments: {} }] } },
    {
      reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'The tests pass.' } }] },
      expect: { lastMessageContains: 'ran the detected test command "npm test" from package.json' },
    },
  ],
  settings,
);

e2eTest(
  'detected tests, offer not answered: run_tests asks to run npm test, runs it, and the run ends with tests passed',
  async (vs) => {
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    const use = getByRoleIn(chat, 'button', /^Use npm test/);
    await use.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    await sendInChat(vs, 'Do the tests pass?');
    const approve = getByRoleIn(chat, 'button', 'Approve test command: Run the detected test command "npm test"?');
    await approve.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-detected-tests-unanswered-ask');
    await approve.click();
    await chat
      .getByText('finished · tests passed')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-detected-tests-unanswered-passed');
    assert.deepEqual(scripted.server.mismatches, []);
    // Running it answered nothing: the offer is still there, and no settings file was written.
    assert.equal(await use.isVisible(), true, 'the offer stays until the user answers it');
    assert.throws(() => vs.readFile('.vscode/settings.json'));
  },
  { files: { 'add.js': ADD, 'add.test.js': TEST, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) }, settings },
);
