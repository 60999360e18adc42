// Runs the in-host mocha suites (test/inhost/suite/*.inhost.ts) inside a real VS Code's extension
// host (code-server + Chromium) and fails with mocha's failures. Skipped, with the reason, when
// code-server is not installed and PATCHPILOT_E2E is not '1'. Same suites on a desktop VS Code:
// node scripts/run-inhost-electron.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { e2eAvailability } from './support/codeServer';
import { formatReport, runInhostSuite } from './support/inhost';

const availability = e2eAvailability();

test('in-host mocha suites pass in a real VS Code extension host', { skip: availability.run ? false : availability.reason, timeout: 10 * 60_000 }, async (t) => {
  const report = await runInhostSuite({
    grep: process.env.PATCHPILOT_INHOST_GREP,
    onTest: (e) => t.diagnostic(`${e.state === 'passed' ? 'ok' : e.state} - ${e.title}${e.error ? `: ${e.error}` : ''}`),
  });
  t.diagnostic(formatReport(report));
  assert.equal(report.failed, 0, formatReport(report));
  assert.ok(report.passed > 0, 'no in-host test ran');
});
