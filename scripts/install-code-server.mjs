#!/usr/bin/env node
// Installs code-server (a full VS Code 1.100.3 whose extension host is the desktop one) into a
// cached, git-ignored folder, for the in-host and UI tests and for `npm start` on a machine
// without a desktop `code`. The steps are the recipe README.md's "Testing in a real VS Code" describes: the
// package's own postinstall cannot work offline (it downloads ripgrep, asks node-gyp questions and
// wants --unsafe-perm as root with old npm), so we install with --ignore-scripts and do its work by hand.
//
// Usage: node scripts/install-code-server.mjs [--force] [--quiet]
//   PATCHPILOT_CODE_SERVER_DIR  where to install (default: <repo>/.vscode-test/code-server)
// Idempotent: a stamp file records the version and the Node ABI the native modules were built
// for; when it matches, the script exits at once. It never calls apt: it says what is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeServerDir, CODE_SERVER_VERSION, stampFor } from './code-server-paths.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');
const dir = codeServerDir(repo);
const stampFile = path.join(dir, '.installed');
const stamp = stampFor();

function log(msg) {
  if (!quiet) console.log(`[install-code-server] ${msg}`);
}
function fail(msg) {
  console.error(`[install-code-server] error: ${msg}`);
  process.exit(1);
}

// VS Code's built-in extensions share one dependency folder (TypeScript for the TypeScript and
// JavaScript language features); without it every window opening a .js file shows "tsserver was deleted".
const builtinExtensionsDir = path.join(dir, 'node_modules/code-server/lib/vscode/extensions');
const builtinDepsReady = () => existsSync(path.join(builtinExtensionsDir, 'node_modules/typescript/lib/tsserver.js'));
const installed = !force && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp;
if (installed && builtinDepsReady()) {
  log(`code-server ${CODE_SERVER_VERSION} already installed in ${dir}`);
  process.exit(0);
}

// --- What the system must provide (Debian package names; `.ci/run` installs them) -------------
function onPath(bin) {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;
}
const requirements = [
  { pkg: 'libkrb5-dev', ok: () => existsSync('/usr/include/gssapi/gssapi.h') || existsSync('/usr/include/krb5.h') },
  { pkg: 'libsecret-1-dev', ok: () => existsSync('/usr/include/libsecret-1/libsecret/secret.h') },
  { pkg: 'libxkbfile-dev', ok: () => existsSync('/usr/include/X11/extensions/XKBfile.h') },
  { pkg: 'libx11-dev', ok: () => existsSync('/usr/include/X11/Xlib.h') },
  { pkg: 'ripgrep', ok: () => onPath('rg') },
  { pkg: 'g++', ok: () => onPath('g++') },
  { pkg: 'make', ok: () => onPath('make') },
  { pkg: 'python3', ok: () => onPath('python3') },
];
const missing = requirements.filter((r) => !r.ok()).map((r) => r.pkg);
if (missing.length > 0) {
  fail(
    `missing system packages needed to build code-server's native modules: ${missing.join(' ')}\n` +
      `  install them first, e.g. (Debian/Ubuntu): sudo apt-get install -y ${missing.join(' ')}\n` +
      `  (.ci/run does this on CI)`,
  );
}
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor !== 20) {
  log(`warning: code-server ${CODE_SERVER_VERSION} declares Node 20; this is Node ${process.versions.node}`);
}
if (!onPath('chromium') && !existsSync('/usr/bin/chromium')) {
  log('note: chromium is not installed; the UI and in-host tests need it (apt-get install chromium)');
}

// --- The recipe --------------------------------------------------------------------------------
const started = Date.now();
// node-gyp must find this Node's headers locally: offline it cannot download them.
const nodeDir = path.resolve(path.dirname(process.execPath), '..');
const nodeDirEnv = !process.env.npm_config_nodedir && existsSync(path.join(nodeDir, 'include/node/node.h')) ? { npm_config_nodedir: nodeDir } : {};
function run(cmd, args, cwd, extraEnv = {}) {
  log(`${path.relative(repo, cwd) || '.'}$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    env: {
      ...process.env,
      npm_config_yes: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...nodeDirEnv,
      ...extraEnv,
    },
  });
  if (r.error) fail(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) fail(`'${cmd} ${args.join(' ')}' in ${cwd} exited with ${r.status ?? r.signal}`);
}

function installBuiltinExtensionDeps() {
  run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-save'], builtinExtensionsDir);
  if (!builtinDepsReady()) fail(`the built-in extensions' TypeScript is missing after npm install in ${builtinExtensionsDir}`);
}
if (installed) {
  // An install from before this step: only the built-in extensions' dependencies are missing.
  installBuiltinExtensionDeps();
  log(`code-server ${CODE_SERVER_VERSION} already installed in ${dir}; the built-in extensions' dependencies added`);
  process.exit(0);
}

log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (2-4 minutes on 2 cores)`);
rmSync(dir, { recursive: true, force: true }); // a half-done install is never resumed
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'patchpilot-code-server', private: true }, null, 2));
run('npm', ['install', '--ignore-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`], dir);
run('npm', ['rebuild', 'argon2'], dir);

const vscodeDir = path.join(dir, 'node_modules/code-server/lib/vscode');
if (!existsSync(path.join(vscodeDir, 'package.json'))) fail(`unexpected code-server layout: ${vscodeDir} is missing`);
run('npm', ['install', '--omit=dev', '--ignore-scripts'], vscodeDir);
const rgDir = path.join(vscodeDir, 'node_modules/@vscode/ripgrep/bin');
mkdirSync(rgDir, { recursive: true });
const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
copyFileSync(rg, path.join(rgDir, 'rg'));
chmodSync(path.join(rgDir, 'rg'), 0o755);
// Builds node-pty, @parcel/watcher, kerberos, ... against this Node's headers (never downloaded).
run('npm', ['rebuild'], vscodeDir);
function link(target, at) {
  rmSync(at, { force: true });
  symlinkSync(target, at);
}
link('node_modules', path.join(vscodeDir, 'node_modules.asar'));
installBuiltinExtensionDeps();
link('code-linux.sh', path.join(vscodeDir, 'bin/remote-cli/code-server'));
link('browser-linux.sh', path.join(vscodeDir, 'bin/helpers/browser.sh'));

const entry = path.join(dir, 'node_modules/code-server/out/node/entry.js');
// A throw-away config folder: code-server writes a default config.yaml on its first start.
const configHome = path.join(dir, '.config');
const check = spawnSync(process.execPath, [entry, '--version'], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: configHome } });
const versionLine = check.stdout.split('\n').find((l) => l.includes('with Code')) ?? '';
if (check.status !== 0 || !versionLine.includes(CODE_SERVER_VERSION)) {
  fail(`the installed code-server does not start:\n${check.stdout}${check.stderr}`);
}
writeFileSync(stampFile, stamp + '\n');
log(`done in ${Math.round((Date.now() - started) / 1000)} s: code-server ${versionLine.trim()}`);
