#!/usr/bin/env node
// `npm start` (after `npm run build`): opens a real VS Code with PatchPilot loaded from this folder
// (extensionDevelopmentPath) on a sample workspace with one failing test.
//   - a desktop `code` on PATH: `code --extensionDevelopmentPath=<repo> <sample>`
//   - otherwise code-server (installed once by scripts/install-code-server.mjs) on 127.0.0.1,
//     and the URL to open is printed; Ctrl-C stops it.
// Options: --fresh (recopy the sample workspace), --code-server (skip the desktop `code`),
//          --port N (default 3210, or PATCHPILOT_PORT; a free port if that one is taken)
// The sample is copied from media/sample/ (shipped in the VSIX) to .vscode-test/sample-workspace/ (ignored).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeServerEntry } from './code-server-paths.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const state = path.join(repo, '.vscode-test');
const sample = path.join(state, 'sample-workspace');

if (!existsSync(path.join(repo, 'dist', 'extension.js'))) {
  console.error('dist/extension.js is missing: run `npm run build` (npm start does it for you)');
  process.exit(1);
}

// --- The sample workspace ---------------------------------------------------------------------
if (flag('--fresh')) rmSync(sample, { recursive: true, force: true });
if (!existsSync(sample)) {
  mkdirSync(state, { recursive: true });
  cpSync(path.join(repo, 'media', 'sample'), sample, { recursive: true });
  // A repository, as the agent expects (its file tools list files with git); best effort.
  const git = (...a) => spawnSync('git', a, { cwd: sample, stdio: 'ignore' }).status === 0;
  if (git('init', '-q')) {
    git('add', '-A');
    git('-c', 'user.name=PatchPilot sample', '-c', 'user.email=sample@patchpilot.invalid', 'commit', '-qm', 'sample project');
  }
  console.log(`sample workspace: ${sample} (from media/sample, the sample the extension ships; --fresh resets it)`);
}

console.log('CLI: node dist/cli.js --help');

// --- A desktop VS Code, when there is one ------------------------------------------------------
const hasCode = !flag('--code-server') && spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
if (hasCode) {
  console.log(`opening a desktop VS Code with PatchPilot from ${repo}`);
  const r = spawnSync('code', ['--new-window', `--extensionDevelopmentPath=${repo}`, sample], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

// --- Else code-server --------------------------------------------------------------------------
const install = spawnSync(process.execPath, [path.join(repo, 'scripts', 'install-code-server.mjs')], { stdio: 'inherit' });
if (install.status !== 0) process.exit(install.status ?? 1);

function portFree(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}
const wanted = Number(option('--port') ?? process.env.PATCHPILOT_PORT ?? 3210);
const port = (await portFree(wanted)) ? wanted : 0;

const profile = path.join(state, 'start');
const userData = path.join(profile, 'user-data');
const settingsFile = path.join(userData, 'User', 'settings.json');
if (!existsSync(settingsFile)) {
  mkdirSync(path.dirname(settingsFile), { recursive: true });
  writeFileSync(settingsFile, JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'update.mode': 'none' }, null, 2));
}
const child = spawn(
  process.execPath,
  [
    codeServerEntry(repo),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userData,
    '--extensions-dir',
    path.join(profile, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--disable-workspace-trust',
    sample,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: path.join(profile, 'config') } },
);
let out = '';
let announced = false;
const onData = (d) => {
  out += d.toString();
  const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
  if (m && !announced) {
    announced = true;
    const base = m[1];
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${base.slice('http://'.length)}${repo}`],
      ['skipWelcome', 'true'],
    ];
    const url = `${base}/?folder=${encodeURIComponent(sample)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    console.log(`\nPatchPilot in VS Code (code-server) is ready. Open:\n\n  ${url}\n`);
    console.log('No model yet? Open the PatchPilot view in the activity bar and press "Use Demo Model", then ask');
    console.log('"make the failing date test pass": a scripted demo walks the whole loop (tests, patch review, tests again).');
    console.log('Rebuild with `npm run build`, then reload the window (Developer: Reload Window). Ctrl-C stops it.');
  }
};
child.stdout.on('data', onData);
child.stderr.on('data', (d) => {
  onData(d);
  if (process.env.PATCHPILOT_START_VERBOSE === '1') process.stderr.write(d);
});
const stop = () => child.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code, signal) => {
  if (!announced) console.error(`code-server exited before it was ready (${code ?? signal}):\n${out}`);
  process.exit(announced ? 0 : 1);
});
