// Tests of the e2e harness itself, on a fixture extension shaped like PatchPilot's chat view
// (test/e2e/fixtures/webview-probe), so the helpers are known to work before PatchPilot's own UI
// uses them: a webview view's frame found by its title, controls by role and accessible name, a
// notification, the workspace on disk, and no process left behind after close().
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { e2eAvailability } from './support/codeServer';
import { alive, descendants } from './support/processes';
import { launchVsCode } from './support/session';
import { getByRoleIn } from './support/workbench';

const availability = e2eAvailability();
const probe = path.join(__dirname, 'fixtures', 'webview-probe');

test('harness: webview view by title, role+name inside it, notification, files, clean shutdown', { skip: availability.run ? false : availability.reason, timeout: 5 * 60_000 }, async () => {
  const vs = await launchVsCode({ extraExtensions: [probe], files: { 'hello.txt': 'hi\n' } });
  let pids: number[] = [];
  try {
    assert.equal(vs.readFile('hello.txt'), 'hi\n');
    await vs.openViewContainer('Webview Probe');
    const frame = await vs.webviewFrame('Webview Probe');
    await getByRoleIn(frame, 'textbox', 'Message Probe').fill('hello from the harness');
    await getByRoleIn(frame, 'button', 'Send').click();
    await vs.waitForNotification('probe received: hello from the harness');
    await frame.getByText('echo: hello from the harness').waitFor();
    // Everything this test process started: code-server's tree and Chromium's.
    pids = descendants(process.pid);
    assert.ok(pids.includes(vs.server.process.pid!));
    assert.ok(pids.length >= 3, `expected code-server, its extension host and chromium, got ${pids.length} processes`);
  } catch (err) {
    const shot = await vs.screenshot('harness-failure').catch(() => '(none)');
    throw new Error(`${(err as Error).message}\nscreenshot: ${shot}`, { cause: err });
  } finally {
    await vs.close();
  }
  const left = pids.filter(alive);
  assert.deepEqual(left, [], `processes left after close(): ${left.join(' ')}`);
});
