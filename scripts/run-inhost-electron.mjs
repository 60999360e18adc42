#!/usr/bin/env node
// Runs the in-host mocha suites (test/inhost) in a desktop VS Code through @vscode/test-electron,
// where one can be downloaded (a developer's laptop, hosted CI) or is given. Not part of `npm test`:
// machines without internet access run the same suites in code-server (test/e2e/inhost.test.ts,
// or `node scripts/run-inhost.mjs`).
//
// Usage: node scripts/run-inhost-electron.mjs [--grep REGEX]
//   VSCODE_EXECUTABLE=/path/to/code   use this VS Code instead of downloading one
//   VSCODE_VERSION=1.100.3            the version to download (default: the engines.vscode minimum)
// On Linux without a display, run it under xvfb-run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const grepAt = process.argv.indexOf('--grep');
const grep = grepAt > 0 ? process.argv[grepAt + 1] : process.env.PATCHPILOT_INHOST_GREP;

// Build the extension and the in-host suites (the same out/inhost the code-server runner uses).
for (const [cmd, args] of [
  ['npm', ['run', 'build']],
  [
    process.execPath,
    ['--import', 'tsx', '-e', "require('./test/e2e/support/inhost.ts').buildInhostTests().catch((e) => { console.error(e); process.exit(1); })"],
  ],
]) {
  const r = spawnSync(cmd, args, { cwd: repo, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const { runTests, downloadAndUnzipVSCode } = await import('@vscode/test-electron');
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
const version = process.env.VSCODE_VERSION ?? pkg.engines.vscode.replace(/^[^\d]*/, '');

let vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
if (!vscodeExecutablePath) {
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode({ version, timeout: 60_000 });
  } catch (err) {
    console.error(
      `\nrun-inhost-electron: could not download VS Code ${version} (${err?.message ?? err}).\n` +
        'This machine cannot reach the VS Code update service (no internet access, or a proxy is needed).\n' +
        'Either set VSCODE_EXECUTABLE to an installed VS Code binary, or run the same in-host suites in\n' +
        'code-server, which installs from the npm registry: node scripts/install-code-server.mjs && node scripts/run-inhost.mjs',
    );
    process.exit(2);
  }
}

const workspace = mkdtempSync(path.join(os.tmpdir(), 'pp-inhost-ws-'));
const userData = mkdtempSync(path.join(os.tmpdir(), 'pp-inhost-ud-'));
try {
  const code = await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: repo,
    extensionTestsPath: path.join(repo, 'out', 'inhost'),
    extensionTestsEnv: grep ? { PATCHPILOT_INHOST_GREP: grep } : {},
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', `--user-data-dir=${userData}`],
  });
  process.exitCode = code;
} catch (err) {
  console.error(`run-inhost-electron: the in-host tests failed (${err?.message ?? err})`);
  process.exitCode = 1;
} finally {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(userData, { recursive: true, force: true });
}
