// The demo model after a VSIX install, in a project of the user's own (no dates.js): the chat says
// plainly what the demo can show here, and "Open the Sample Project" copies the sample the extension
// ships into a new temporary folder and opens it, where the demo answers and knows the bug.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

e2eTest(
  'demo in another project: the banner says what it can show; Open the Sample Project copies the shipped sample and opens it',
  async (vs) => {
    await vs.runCommand('PatchPilot: Use Demo Model');
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    await chat
      .getByText(/know only the sample project's failing date test \(dates\.js\), which this project does not have/)
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.screenshot('demo-other-project');
    await getByRoleIn(chat, 'button', 'Open the Sample Project').click();
    const pick = vs.page.locator('.quick-input-widget');
    await pick.getByRole('option', { name: /Copy into a Temporary Folder/ }).click();

    // The window opens the copy (code-server puts the folder in the URL).
    let folder: string | null = null;
    const deadline = Date.now() + E2E_TIMEOUT * 2;
    while (!folder?.includes('patchpilot-sample') && Date.now() < deadline) {
      folder = new URL(vs.page.url()).searchParams.get('folder');
      await vs.page.waitForTimeout(200); // the window navigates to the new folder
    }
    assert.ok(folder?.includes('patchpilot-sample'), `the sample opened (url ${vs.page.url()})`);
    const copy = decodeURIComponent(folder!.replace(/^vscode-remote:\/\/[^/]+/, '').replace(/^file:\/\//, ''));
    try {
      assert.ok(existsSync(path.join(copy, 'dates.js')), `dates.js in ${copy}`);
      assert.match(readFileSync(path.join(copy, 'test.js'), 'utf8'), /formatDate pads month and day/);
      await vs.page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
      await vs.openViewContainer('PatchPilot');
      const there = await vs.webviewFrame('PatchPilot');
      await there
        .getByText("Demo model: scripted replies that walk the sample project's failing date test.")
        .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
      await vs.screenshot('demo-sample-opened');
    } finally {
      rmSync(path.dirname(copy), { recursive: true, force: true });
    }
  },
  { files: { 'README.md': '# my own project\n' } },
);
