// Tests of the e2e harness itself, on a fixture extension shaped like PatchPilot's chat view
// (test/e2e/fixtures/webview-probe), so the helpers are known to work before PatchPilot's own UI
// uses them: a webview view's frame found by its title, controls by role and accessible name, a
// notification, the workspace on disk, and no process left behind after close().
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { e2eAvailability } from './support/codeServer';
import { alive, descendants } from './support/processes';
import { launchVsCode } from './support/session';
import { getByRoleIn } from './support/workbench';

const availability = e2eAvailability();
const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
};
const probe = path.join(__dirname, 'fixtures', 'webview-probe');

test(
  'harness: webview view by title, role+name inside it, notification, files, clean shutdown',
  { skip: availability.run ? false : availability.reason, timeout: 5 * 60_000 },
  async () => {
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
      // code-server's tree and Chromium's (other children of this process, such as the esbuild
      // service tsx may start, are not ours to judge).
      const csPid = vs.server.process.pid!;
      const chromium = descendants(process.pid).filter((p) => cmdline(p).includes('chromium'));
      pids = [csPid, ...descendants(csPid), ...chromium.flatMap((p) => [p, ...descendants(p)])];
      assert.ok(chromium.length > 0, 'no chromium process found');
      assert.ok(pids.length >= 3, `expected code-server, its extension host and chromium, got ${pids.length} processes`);
    } catch (err) {
      const shot = await vs.screenshot('harness-failure').catch(() => '(none)');
      throw new Error(`${(err as Error).message}\nscreenshot: ${shot}`, { cause: err });
    } finally {
      await vs.close();
    }
    const left = [...new Set(pids)].filter(alive);
    assert.deepEqual(left, [], `processes left after close(): ${left.map((p) => `${p} ${cmdline(p)}`).join('; ')}`);
  },
);
