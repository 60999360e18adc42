#!/usr/bin/env node
// Runs the in-host mocha suites (test/inhost/suite/*.inhost.ts) inside code-server's real extension
// host, prints each test as it finishes, and exits 1 with mocha's failures. `npm test` runs the same
// suites through test/e2e/inhost.test.ts; this is the quick way while writing them.
// Usage: node scripts/run-inhost.mjs [--grep REGEX] [--no-build]
// Needs: node scripts/install-code-server.mjs, and Debian's chromium.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!process.argv.includes('--no-build')) {
  const b = spawnSync('npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const grepAt = process.argv.indexOf('--grep');
const grep = grepAt > 0 ? process.argv[grepAt + 1] : process.env.PATCHPILOT_INHOST_GREP;
const main = `
const { e2eAvailability } = require('./test/e2e/support/codeServer.ts');
const { runInhostSuite, formatReport } = require('./test/e2e/support/inhost.ts');
(async () => {
  const a = e2eAvailability();
  if (!a.run) { console.error('cannot run the in-host tests: ' + a.reason); process.exit(2); }
  const report = await runInhostSuite({
    grep: process.env.PATCHPILOT_INHOST_GREP || undefined,
    onTest: (e) => console.log((e.state === 'passed' ? '  ✔ ' : e.state === 'failed' ? '  ✖ ' : '  - ') + e.title + (e.error ? ': ' + e.error : '')),
  });
  console.log(formatReport(report));
  process.exit(report.failed > 0 || report.passed === 0 ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });
`;
const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', main], {
  cwd: repo,
  stdio: 'inherit',
  env: { ...process.env, ...(grep ? { PATCHPILOT_INHOST_GREP: grep } : {}) },
});
process.exit(r.status ?? 1);
