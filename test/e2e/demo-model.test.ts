// The newcomer's first run in a real VS Code: no model configured, the chat offers the demo model,
// one click, one goal, and the whole loop happens on the sample workspace (tests, read, the native
// diff review, Accept, tests again, the summary), labelled as a demo throughout.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sendInChat } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const SAMPLE = path.resolve(__dirname, '../../media/sample');

function sampleFiles(dir = SAMPLE, prefix = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(files, sampleFiles(full, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = readFileSync(full, 'utf8');
  }
  return files;
}

e2eTest(
  'demo model: with no model set up, "Use Demo Model" then a goal walks the sample bug through the diff review',
  async (vs) => {
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    // Send before any model is set up: the message stays in the box and the focus goes to the way out.
    const box = getByRoleIn(chat, 'textbox', 'Message PatchPilot');
    await box.fill('make the failing date test pass');
    await getByRoleIn(chat, 'button', 'Send').click();
    await chat.locator('.pp-banner button:focus').waitFor({ state: 'visible' });
    assert.equal(await box.inputValue(), 'make the failing date test pass');
    await getByRoleIn(chat, 'button', 'Use Demo Model').click();
    await chat.getByText('Demo model: scripted replies').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await sendInChat(vs, 'make the failing date test pass');

    const accept = vs.page
      .locator('.editor-actions')
      .getByRole('button', { name: /^Accept\b/ })
      .first();
    await accept.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 3 });
    assert.doesNotMatch(vs.readFile('dates.js'), /getUTCMonth\(\) \+ 1/, 'nothing is written before Accept');
    await vs.screenshot('demo-review');
    await accept.click();

    await chat
      .locator('.pp-assistant')
      .getByText('That was the whole loop with the demo model')
      .last()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 3 });
    assert.match(vs.readFile('dates.js'), /getUTCMonth\(\) \+ 1/);
    await vs.openViewContainer('PatchPilot');
    await vs.screenshot('demo-done');
  },
  { files: sampleFiles() },
);
