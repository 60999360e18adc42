// A reopened conversation shows every step as it was shown live, in a real VS Code: a run writes a
// patch (auto-edit) and its tests run; after New Chat, "Continue: ..." brings back the tool row, the
// written patch with Undo Patch, the test result and the usage line, not only the words. Undo from
// the reopened card still puts the file back. Skipped when code-server is missing.
import assert from 'node:assert/strict';
import { GREETING_BEFORE, GREETING_GOAL, fixTheGreeting, useGreetingFix } from './support/greetingFix';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
  'patchpilot.tests.commands': ['node check.js'],
};

useGreetingFix(settings);

e2eTest(
  'a reopened conversation shows its tool steps, the written patch with Undo, and the test result',
  async (vs) => {
    const chat = await fixTheGreeting(vs);
    await chat
      .getByText(/^Tests passed/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    await vs.page
      .getByRole('button', { name: /^New Chat/ })
      .first()
      .click();
    await getByRoleIn(chat, 'button', `Continue: ${GREETING_GOAL}`).click();
    await chat
      .getByText(/^Reopened as it was shown/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // Every step as it was: the tool row, the written patch and its Undo, the tests, the usage.
    await chat.getByText('propose_patch').first().waitFor({ state: 'visible' });
    await chat.getByText('Written to greet.js: the hunk').first().waitFor({ state: 'visible' });
    await chat
      .getByText(/^Tests passed/)
      .first()
      .waitFor({ state: 'visible' });
    await chat
      .getByText(/scripted-model · [\d,]+ in/)
      .first()
      .waitFor({ state: 'visible' });
    await vs.screenshot('chat-reopened-whole');

    await getByRoleIn(chat, 'button', 'Undo Patch to greet.js').click();
    await chat
      .getByText(/undone by you/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(vs.readFile('greet.js'), GREETING_BEFORE);
  },
  { files: { 'greet.js': GREETING_BEFORE, 'check.js': 'process.exit(0);\n' }, settings },
);
