// UI smoke test in a real VS Code (code-server + Chromium): proves the harness on today's extension.
// Skipped, with the reason, when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { e2eTest } from './support/session';
import { descendants } from './support/processes';

const version = (JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;

e2eTest('palette: "PatchPilot: Show Version" shows the version in a notification', async (vs) => {
  await vs.runCommand('PatchPilot: Show Version');
  const toast = await vs.waitForNotification(`PatchPilot ${version}`);
  assert.match((await toast.textContent()) ?? '', new RegExp(`PatchPilot ${version.replace(/\./g, '\\.')}`));
  // The harness itself: code-server runs an extension host under it while the test runs.
  assert.ok(descendants(vs.server.process.pid!).length > 0);
});
